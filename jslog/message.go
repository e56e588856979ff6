package jslog

import (
	"fmt"
	"strconv"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/fxd-labs/fxd/partlog"
	"github.com/fxd-labs/fxd/partlog/groupcommit"
	"github.com/fxd-labs/fxd/wal"
)

// Message format. One message is one group-commit batch: its data is the
// batch's frames back to back in wal's frame format (wal/doc.go: index,
// prevCRC, CRC32C), at consecutive indexes, the first frame chained to the
// last frame of the message before. Two headers repeat what the frames
// say, so that a reader can find the message holding an index without
// decoding frames; they are checked against the frames on every read.
const (
	// HeaderFirstIndex is the index of the message's first frame, decimal.
	HeaderFirstIndex = "Fxd-First-Index"
	// HeaderCount is the number of frames in the message, decimal.
	HeaderCount = "Fxd-Count"
)

// message is a stored message, decoded and verified on its own: headers
// agree with the frames, every frame's checksum holds, indexes are
// consecutive from first, and each frame chains to the one before it. The
// link to the message before needs that message and is the caller's.
type message struct {
	seq    uint64
	first  uint64
	frames []wal.Frame // Payloads alias the message's data
	size   int         // the data's length
}

func (m *message) last() uint64      { return m.first + uint64(len(m.frames)) - 1 }
func (m *message) lastCRC() uint32   { return m.frames[len(m.frames)-1].CRC }
func (m *message) firstPrev() uint32 { return m.frames[0].PrevCRC }

// encodeBatch appends the frames of payloads, at indexes from first,
// chained to prevCRC, to dst; it returns them and the last frame's crc.
func encodeBatch(dst []byte, first uint64, prevCRC uint32, payloads []groupcommit.Request) ([]byte, uint32) {
	crc := prevCRC
	for i, r := range payloads {
		dst, crc = wal.AppendFrame(dst, first+uint64(i), crc, r.Payload)
	}
	return dst, crc
}

// batchHeader is the headers of a message holding count frames from first.
func batchHeader(first uint64, count int) nats.Header {
	h := nats.Header{}
	h.Set(HeaderFirstIndex, strconv.FormatUint(first, 10))
	h.Set(HeaderCount, strconv.Itoa(count))
	return h
}

// headerRange reads the index range a message claims, without decoding its
// frames (the binary search of locate needs only this).
func headerRange(raw *jetstream.RawStreamMsg) (first uint64, count int, err error) {
	return parseRange(raw.Header, raw.Sequence, len(raw.Data))
}

// parseRange reads the index range the headers h of the message at seq
// claim. Every frame takes at least wal.HeaderSize bytes, which bounds the
// count by the message's data size.
func parseRange(h nats.Header, seq uint64, dataLen int) (first uint64, count int, err error) {
	first, err = strconv.ParseUint(h.Get(HeaderFirstIndex), 10, 64)
	if err != nil || first == 0 {
		return 0, 0, fmt.Errorf("%w: message %d: header %s is %q", partlog.ErrCorrupt, seq, HeaderFirstIndex, h.Get(HeaderFirstIndex))
	}
	count, err = strconv.Atoi(h.Get(HeaderCount))
	if err != nil || count < 1 || count > dataLen/wal.HeaderSize || first+uint64(count) < first {
		return 0, 0, fmt.Errorf("%w: message %d: header %s is %q for %d data bytes", partlog.ErrCorrupt, seq, HeaderCount, h.Get(HeaderCount), dataLen)
	}
	return first, count, nil
}

// decodeMessage decodes and verifies raw on its own (see message).
func decodeMessage(raw *jetstream.RawStreamMsg, subject string) (*message, error) {
	if raw.Subject != subject {
		return nil, fmt.Errorf("%w: message %d: subject %q, want %q", partlog.ErrCorrupt, raw.Sequence, raw.Subject, subject)
	}
	first, count, err := headerRange(raw)
	if err != nil {
		return nil, err
	}
	m := &message{seq: raw.Sequence, first: first, frames: make([]wal.Frame, 0, count), size: len(raw.Data)}
	rest := raw.Data
	for len(rest) > 0 {
		index := first + uint64(len(m.frames))
		var f wal.Frame
		if f, rest, err = wal.SplitFrame(rest); err != nil {
			return nil, fmt.Errorf("%w: message %d: index %d: %w", partlog.ErrCorrupt, raw.Sequence, index, err)
		}
		if err := checkFrame(m, f, index); err != nil {
			return nil, err
		}
		m.frames = append(m.frames, f)
		if len(m.frames) > count {
			return nil, fmt.Errorf("%w: message %d: more frames than its %s %d", partlog.ErrCorrupt, raw.Sequence, HeaderCount, count)
		}
	}
	if len(m.frames) != count {
		return nil, fmt.Errorf("%w: message %d: %d frames, header %s says %d", partlog.ErrCorrupt, raw.Sequence, len(m.frames), HeaderCount, count)
	}
	return m, nil
}

// checkFrame checks f's index and its link to the frame before it in m
// (or, for index 1, to nothing).
func checkFrame(m *message, f wal.Frame, index uint64) error {
	if f.Index != index {
		return fmt.Errorf("%w: message %d: frame carries index %d, want %d (header %s %d)", partlog.ErrCorrupt, m.seq, f.Index, index, HeaderFirstIndex, m.first)
	}
	if index == 1 && f.PrevCRC != 0 {
		return fmt.Errorf("%w: message %d: index 1 has prevCRC %#08x, want 0", partlog.ErrCorrupt, m.seq, f.PrevCRC)
	}
	if n := len(m.frames); n > 0 && f.PrevCRC != m.frames[n-1].CRC {
		return fmt.Errorf("%w: message %d: chain broken at index %d: prevCRC %#08x, index %d has crc %#08x",
			partlog.ErrCorrupt, m.seq, index, f.PrevCRC, index-1, m.frames[n-1].CRC)
	}
	return nil
}
