package wal

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// Frame layout, little-endian (see doc.go for the why):
//
//	[0:2)   magic 0xF7 0xD1
//	[2]     version (1)
//	[3]     flags (0)
//	[4:12)  index
//	[12:16) prevCRC
//	[16:20) payload length
//	[20:24) crc: CRC32C over [0:20) followed by the payload
//	[24:)   payload
const (
	// HeaderSize is the size of the fixed frame header that precedes the
	// payload.
	HeaderSize = 24
	// MaxPayload is the largest payload a frame may carry (16 MiB). It bounds
	// every allocation made on behalf of a length read from disk.
	MaxPayload = 16 << 20

	magic0       = 0xF7
	magic1       = 0xD1
	frameVersion = 1
	crcOffset    = 20 // bytes covered by the crc before the payload
)

// castagnoli is the CRC32C table; hash/crc32 uses the SSE4.2/ARM CRC
// instructions for it, which is why CRC32C and not IEEE.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Errors returned (wrapped, with detail) by DecodeFrame. Match them with
// errors.Is.
var (
	// ErrShort means the bytes end before the header or the payload does.
	ErrShort = errors.New("frame truncated")
	// ErrBadMagic means the bytes do not start with the frame magic.
	ErrBadMagic = errors.New("bad frame magic")
	// ErrBadVersion means the frame has a version this code cannot read.
	ErrBadVersion = errors.New("unknown frame version")
	// ErrBadFlags means reserved flag bits are set.
	ErrBadFlags = errors.New("unknown frame flags")
	// ErrLength means the length field exceeds MaxPayload or disagrees with
	// the number of bytes given (trailing bytes after the payload).
	ErrLength = errors.New("bad frame length")
	// ErrChecksum means the crc does not match the header and payload.
	ErrChecksum = errors.New("frame checksum mismatch")
)

// Frame is a decoded frame. Payload aliases the bytes given to DecodeFrame.
type Frame struct {
	Index   uint64
	PrevCRC uint32
	CRC     uint32
	Payload []byte
}

// AppendFrame appends the frame for payload at index, chained to prevCRC, to
// dst and returns the extended slice and the new frame's crc (the prevCRC of
// the next frame). It panics if payload is longer than MaxPayload: callers
// check that first (Append returns ErrTooLarge), so a longer payload here is
// a bug.
func AppendFrame(dst []byte, index uint64, prevCRC uint32, payload []byte) ([]byte, uint32) {
	if len(payload) > MaxPayload {
		panic(fmt.Sprintf("wal: AppendFrame: payload of %d bytes exceeds MaxPayload", len(payload)))
	}
	start := len(dst)
	dst = append(dst, magic0, magic1, frameVersion, 0)
	dst = binary.LittleEndian.AppendUint64(dst, index)
	dst = binary.LittleEndian.AppendUint32(dst, prevCRC)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(payload)))
	crc := frameCRC(dst[start:start+crcOffset], payload)
	dst = binary.LittleEndian.AppendUint32(dst, crc)
	dst = append(dst, payload...)
	return dst, crc
}

// frameCRC is the CRC32C of the first crcOffset header bytes followed by the
// payload.
func frameCRC(head, payload []byte) uint32 {
	return crc32.Update(crc32.Checksum(head, castagnoli), castagnoli, payload)
}

// DecodeFrame decodes and verifies exactly one frame: b must hold the header
// and the payload and nothing else. It never panics; on any problem it
// returns an error wrapping one of ErrShort, ErrBadMagic, ErrBadVersion,
// ErrBadFlags, ErrLength or ErrChecksum. It does not check the index or the
// chain: that needs context the caller has.
func DecodeFrame(b []byte) (Frame, error) {
	if len(b) < HeaderSize {
		return Frame{}, fmt.Errorf("%w: %d bytes, header needs %d", ErrShort, len(b), HeaderSize)
	}
	if b[0] != magic0 || b[1] != magic1 {
		return Frame{}, fmt.Errorf("%w: %#02x %#02x", ErrBadMagic, b[0], b[1])
	}
	if b[2] != frameVersion {
		return Frame{}, fmt.Errorf("%w: %d", ErrBadVersion, b[2])
	}
	if b[3] != 0 {
		return Frame{}, fmt.Errorf("%w: %#02x", ErrBadFlags, b[3])
	}
	length := binary.LittleEndian.Uint32(b[16:20])
	if length > MaxPayload {
		return Frame{}, fmt.Errorf("%w: payload length %d exceeds %d", ErrLength, length, MaxPayload)
	}
	// int arithmetic cannot overflow: length <= MaxPayload.
	if want := HeaderSize + int(length); len(b) != want {
		if len(b) < want {
			return Frame{}, fmt.Errorf("%w: %d bytes, frame needs %d", ErrShort, len(b), want)
		}
		return Frame{}, fmt.Errorf("%w: %d bytes, frame is %d", ErrLength, len(b), want)
	}
	f := Frame{
		Index:   binary.LittleEndian.Uint64(b[4:12]),
		PrevCRC: binary.LittleEndian.Uint32(b[12:16]),
		CRC:     binary.LittleEndian.Uint32(b[20:24]),
		Payload: b[HeaderSize:],
	}
	if got := frameCRC(b[:crcOffset], f.Payload); got != f.CRC {
		return Frame{}, fmt.Errorf("%w: stored %#08x, computed %#08x", ErrChecksum, f.CRC, got)
	}
	return f, nil
}

// frameSizeAt returns the total size of the frame whose header starts at
// b[0], from its length field, or false if b is too short to hold a header
// or the length is impossible. It does not verify anything else.
func frameSizeAt(b []byte) (int, bool) {
	if len(b) < HeaderSize {
		return 0, false
	}
	length := binary.LittleEndian.Uint32(b[16:20])
	if length > MaxPayload {
		return 0, false
	}
	return HeaderSize + int(length), true
}

// SplitFrame decodes the frame at the start of b (its size from its length
// field) and returns it and the bytes after it: for a buffer of frames
// laid end to end, as a replicated log's message holds a batch. Every
// check is DecodeFrame's; a b too short for the frame its header
// announces is ErrShort.
func SplitFrame(b []byte) (Frame, []byte, error) {
	size, ok := frameSizeAt(b)
	if !ok || size > len(b) {
		_, err := DecodeFrame(b) // ErrShort or ErrLength, after the magic and version checks
		if err == nil {
			err = fmt.Errorf("%w: %d bytes, the header announces more", ErrShort, len(b))
		}
		return Frame{}, nil, err
	}
	f, err := DecodeFrame(b[:size])
	if err != nil {
		return Frame{}, nil, err
	}
	return f, b[size:], nil
}
