package commit

import "errors"

// Reasons a commitment, an opening or a coin-toss message is refused. The
// functions of this package wrap them with context; test for them with
// errors.Is.
var (
	// ErrMismatch means an opening does not open the commitment it was
	// checked against: the peer changed its value, salt, index or seat,
	// or sent an opening from another game or domain.
	ErrMismatch = errors.New("commit: opening does not match the commitment")
	// ErrMalformed means encoded bytes or text are not a valid encoding.
	ErrMalformed = errors.New("commit: malformed encoding")
	// ErrInvalid means an argument is out of range (empty domain, value
	// too long, seat other than 0 or 1, ...).
	ErrInvalid = errors.New("commit: invalid argument")
	// ErrOutOfOrder means a coin-toss step came before the step it needs
	// (a reveal before the commitment, a result before both reveals).
	ErrOutOfOrder = errors.New("commit: coin-toss message out of order")
	// ErrDuplicate means a coin-toss message arrived a second time.
	ErrDuplicate = errors.New("commit: duplicate coin-toss message")
)
