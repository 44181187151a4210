package ot

import (
	"fmt"

	"github.com/bwesterb/go-ristretto"
	"github.com/cloudflare/circl/group"
)

// sharedBaseMin is the number of OTs from which the receiver multiplies
// the sender's point S through a table of S's multiples (sharedBase):
// computing the table costs some seventeen scalar multiplications and
// each multiplication through it a quarter of one.
const sharedBaseMin = 32

// sharedBase computes x·S for many scalars x and the one point S of a
// run of base OTs (the receiver's k_i = H(i, S, R_i, x_i·S)), through a
// table of S's multiples (go-ristretto's ScalarMultTable, the method of
// its multiplications by the generator, constant-time like them) when
// there are enough of them: the same points, encoded the same, as
// group.Element's Mul, which circl computes with go-ristretto too.
type sharedBase struct {
	table *ristretto.ScalarMultTable // nil: multiply one by one
}

// newSharedBase returns the sharedBase of the point encoded as sEnc for
// n multiplications.
func newSharedBase(sEnc []byte, n int) (sharedBase, error) {
	if n < sharedBaseMin {
		return sharedBase{}, nil
	}
	var buf [32]byte
	if copy(buf[:], sEnc) != len(buf) || len(sEnc) != len(buf) {
		return sharedBase{}, fmt.Errorf("%w: invalid group element", ErrMessage)
	}
	var p ristretto.Point
	if !p.SetBytes(&buf) {
		return sharedBase{}, fmt.Errorf("%w: invalid group element", ErrMessage)
	}
	t := new(ristretto.ScalarMultTable)
	t.Compute(&p)
	return sharedBase{table: t}, nil
}

// mul returns the encoding of x·S (sp is S).
func (b sharedBase) mul(sp group.Element, x group.Scalar) ([]byte, error) {
	if b.table == nil {
		return curve.NewElement().Mul(sp, x).MarshalBinary()
	}
	xb, err := x.MarshalBinary()
	if err != nil {
		return nil, err
	}
	var buf [32]byte
	if copy(buf[:], xb) != len(buf) {
		return nil, fmt.Errorf("ot: scalar of %d bytes", len(xb))
	}
	var s ristretto.Scalar
	s.SetBytes(&buf)
	var p ristretto.Point
	return p.ScalarMultTable(b.table, &s).Bytes(), nil
}
