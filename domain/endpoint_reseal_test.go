package domain

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var sealedA2, sealedB2 = []byte("sealed-a under the new key"), []byte("sealed-b under the new key")

// rotatedEndpoint is an endpoint created with sealedA and rotated to
// sealedB: two secrets, the previous one retiring. It returns the state,
// the clock and when A retires.
func rotatedEndpoint(t *testing.T) (*EndpointState, *clock, time.Time) {
	t.Helper()
	c := newClock()
	s := NewEndpointState()
	runEntity(t, c, s, createEndpointCmd())
	retires := c.now.Add(SecretOverlap)
	r := runEntity(t, c, s, RotateSecret{Account: acctID, Sealed: sealedB})
	require.Equal(t, 200, r[0].Status)
	require.Equal(t, []SealedSecret{{Sealed: sealedB}, {Sealed: sealedA, RetiresAt: retires}}, s.Endpoint.Secrets)
	return s, c, retires
}

// TestEndpointResealApplies: the sealed bytes change, one for one; the
// secrets' order and validity and every other field stay, UpdatedAt
// included; the event is the endpoint's row and survives the codec.
func TestEndpointResealApplies(t *testing.T) {
	s, c, retires := rotatedEndpoint(t)
	before := *s.Endpoint
	c.advance(time.Hour)

	out := s.Handle(Request{Cmd: ResealSecrets{Old: [][]byte{sealedB, sealedA}, Sealed: [][]byte{sealedB2, sealedA2}}}, c.env())
	require.Nil(t, out.Err)
	require.Equal(t, 200, out.Reply.Status)
	require.Len(t, out.Events, 1)
	ev := out.Events[0]
	require.Equal(t, EvEndpointPut, ev.Kind)

	// Through the log's codec, as a record.
	enc := MarshalRecord(nil, &Record{Entity: acctID, Events: out.Events})
	rec, err := UnmarshalRecord(enc)
	require.NoError(t, err)
	require.Len(t, rec.Events, 1)
	s.Apply(&rec.Events[0])

	e := s.Endpoint
	require.Equal(t, []SealedSecret{{Sealed: sealedB2}, {Sealed: sealedA2, RetiresAt: retires}}, e.Secrets)
	after := *e
	after.Secrets = before.Secrets
	require.Equal(t, before, after, "nothing but the sealing changed")
	require.Equal(t, [][]byte{sealedB2, sealedA2}, e.SigningSecrets(retires.Add(-time.Second)))
	require.Equal(t, [][]byte{sealedB2}, e.SigningSecrets(retires), "the previous secret still retires when it did")

	// The command's slices are not shared with the row.
	cmd := ResealSecrets{Old: [][]byte{sealedB2, sealedA2}, Sealed: [][]byte{[]byte("b3"), []byte("a3")}}
	out = s.Handle(Request{Cmd: cmd}, c.env())
	require.Len(t, out.Events, 1)
	cmd.Sealed[0][0] = 'X'
	require.Equal(t, "b3", string(out.Events[0].Endpoint.Secrets[0].Sealed))
	require.Equal(t, sealedB2, s.Endpoint.Secrets[0].Sealed, "Handle does not change the state")
}

// TestEndpointResealRefusesStale: a reseal applies only to exactly the
// sealed values it read; anything else (a rotation since, another reseal
// since) is 409 and writes nothing.
func TestEndpointResealRefusesStale(t *testing.T) {
	tests := []struct {
		name string
		old  [][]byte
	}{
		{"read before a rotation", [][]byte{sealedA}},
		{"order swapped", [][]byte{sealedA, sealedB}},
		{"one more", [][]byte{sealedB, sealedA, sealedC}},
		{"another value", [][]byte{sealedB, sealedC}},
		{"a prefix of a value", [][]byte{sealedB, sealedA[:3]}},
		{"none", [][]byte{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, c, _ := rotatedEndpoint(t)
			before := *s.Endpoint
			sealed := make([][]byte, len(tc.old))
			for i := range sealed {
				sealed[i] = sealedA2
			}
			out := s.Handle(Request{Cmd: ResealSecrets{Old: tc.old, Sealed: sealed}}, c.env())
			require.NotNil(t, out.Err)
			require.Equal(t, 409, out.Reply.Status)
			require.Equal(t, CodeInvalidState, out.Err.Code)
			require.Contains(t, out.Err.Message, "read it again")
			require.Empty(t, out.Events)
			require.Equal(t, before, *s.Endpoint)
		})
	}
}

// TestEndpointResealRace: a reseal that read the row before a
// rotate-secret committed does not undo the rotation; read again, it
// reseals the rotated row.
func TestEndpointResealRace(t *testing.T) {
	c := newClock()
	s := NewEndpointState()
	runEntity(t, c, s, createEndpointCmd())
	read := [][]byte{s.Endpoint.Secrets[0].Sealed}
	runEntity(t, c, s, RotateSecret{Account: acctID, Sealed: sealedB})

	r := runEntity(t, c, s, ResealSecrets{Old: read, Sealed: [][]byte{sealedA2}})
	require.Equal(t, 409, r[0].Status)
	require.Equal(t, sealedB, s.Endpoint.Secrets[0].Sealed, "the rotated secret stays current")

	r = runEntity(t, c, s, ResealSecrets{Old: [][]byte{sealedB, sealedA}, Sealed: [][]byte{sealedB, sealedA2}})
	require.Equal(t, 200, r[0].Status)
	require.Equal(t, [][]byte{sealedB, sealedA2}, [][]byte{s.Endpoint.Secrets[0].Sealed, s.Endpoint.Secrets[1].Sealed})
}

func TestEndpointResealEdges(t *testing.T) {
	s, c, _ := rotatedEndpoint(t)

	// Nothing to change: answered, nothing written.
	out := s.Handle(Request{Cmd: ResealSecrets{Old: [][]byte{sealedB, sealedA}, Sealed: [][]byte{sealedB, sealedA}}}, c.env())
	require.Nil(t, out.Err)
	require.Equal(t, 200, out.Reply.Status)
	require.Empty(t, out.Events)

	// Host bugs panic rather than write a row without a secret.
	require.Panics(t, func() {
		s.Handle(Request{Cmd: ResealSecrets{Old: [][]byte{sealedB, sealedA}, Sealed: [][]byte{sealedB2}}}, c.env())
	})
	require.Panics(t, func() {
		s.Handle(Request{Cmd: ResealSecrets{Old: [][]byte{sealedB, sealedA}, Sealed: [][]byte{sealedB2, nil}}}, c.env())
	})

	// A deleted endpoint, or none: 404, nothing written.
	runEntity(t, c, s, DeleteEndpoint{Account: acctID})
	for _, st := range []*EndpointState{s, NewEndpointState()} {
		out := st.Handle(Request{Cmd: ResealSecrets{Old: [][]byte{sealedB, sealedA}, Sealed: [][]byte{sealedB2, sealedA2}}}, c.env())
		require.Equal(t, 404, out.Reply.Status)
		require.Empty(t, out.Events)
	}
}
