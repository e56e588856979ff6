package forward

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/valyala/fasthttp"
)

// A streamed answer (the ledger export: a body of any length, written as
// it is read from the store) does not fit one message. The owner answers
// the request with the head alone (status line and headers) and the
// header Fxd-Stream naming a subject of its own; the entry node then asks
// that subject for the body a piece at a time, writing each to its client
// before it asks for the next. Pulling is the flow control: the owner
// reads from the store no faster than the client takes the bytes, and a
// client that stops reading stops the owner too.
//
// The last piece carries Fxd-End. A piece that fails (the store, the
// owner gone, StreamIdle without a pull) ends the entry's body early and
// the entry node closes the client's connection: the client sees a
// broken chunked body, never a short file that looks whole (as on one
// node).
const (
	// HeaderStream names the subject the body of a streamed answer is
	// pulled from.
	HeaderStream = "Fxd-Stream"
	// HeaderEnd marks the last piece of a streamed body.
	HeaderEnd = "Fxd-End"
	// PieceSize is the most body bytes in one piece.
	PieceSize = 1 << 20
	// MaxStreams bounds the streamed answers an owner serves at once;
	// past it a streamed answer is refused 503.
	MaxStreams = 64
	// StreamIdle is how long an owner keeps a stream whose next piece
	// nobody asks for (the entry node gone, its client stalled).
	StreamIdle = 60 * time.Second
)

// stream answers msg with resp's head and serves resp's body, piece by
// piece, on a subject of its own, until the body ends, fails, or nobody
// asks for StreamIdle. It owns resp's body stream and closes it.
func (r *Responder) stream(msg *nats.Msg, resp *fasthttp.Response) {
	defer func() { _ = resp.CloseBodyStream() }()
	select {
	case r.streams <- struct{}{}:
	default:
		r.refuse(msg, errBusy) // the handler ran: a read (the export), nothing to undo
		return
	}
	defer func() { <-r.streams }()
	subject := r.nc.NewRespInbox()
	pulls, err := r.nc.SubscribeSync(subject)
	if err != nil {
		r.refuse(msg, errGarbled)
		return
	}
	defer func() { _ = pulls.Unsubscribe() }()
	head := nats.NewMsg(msg.Reply)
	head.Header.Set(HeaderStream, subject)
	head.Data = resp.Header.Header()
	if err := r.nc.PublishMsg(head); err != nil {
		return
	}
	body := resp.BodyStream()
	buf := make([]byte, PieceSize)
	for {
		pull, err := pulls.NextMsg(r.streamIdle)
		if err != nil {
			return // nobody asks any more
		}
		n, rerr := io.ReadFull(body, buf)
		piece := nats.NewMsg(pull.Reply)
		piece.Data = buf[:n]
		switch {
		case rerr == io.EOF || rerr == io.ErrUnexpectedEOF:
			piece.Header.Set(HeaderEnd, "1")
		case rerr != nil:
			// No piece: the entry node's pull times out and it cuts its
			// client off.
			return
		}
		if err := r.nc.PublishMsg(piece); err != nil || piece.Header.Get(HeaderEnd) != "" {
			return
		}
	}
}

// pullBody makes ctx's body the streamed body of the answer whose head
// came in reply: the head's status and headers, then the pieces pulled
// from its subject as the client takes them.
func (f *Forwarder) pullBody(ctx *fasthttp.RequestCtx, reply *nats.Msg) error {
	subject := reply.Header.Get(HeaderStream)
	if err := ctx.Response.Header.Read(bufio.NewReader(bytes.NewReader(reply.Data))); err != nil {
		return fmt.Errorf("forward: streamed answer's head: %w", err)
	}
	ctx.Response.SetBodyStream(&puller{nc: f.nc, subject: subject, wait: f.cfg.AnswerWait}, -1)
	return nil
}

// puller reads a streamed body piece by piece.
type puller struct {
	nc      *nats.Conn
	subject string
	wait    time.Duration
	piece   []byte
	ended   bool
}

// errStreamBroken: a piece did not come; the body is cut short.
var errStreamBroken = errors.New("forward: streamed answer broken off")

func (p *puller) Read(b []byte) (int, error) {
	for len(p.piece) == 0 {
		if p.ended {
			return 0, io.EOF
		}
		msg, err := p.nc.Request(p.subject, nil, p.wait)
		if err != nil {
			return 0, fmt.Errorf("%w: %w", errStreamBroken, err)
		}
		p.piece, p.ended = msg.Data, msg.Header.Get(HeaderEnd) != ""
	}
	n := copy(b, p.piece)
	p.piece = p.piece[n:]
	return n, nil
}
