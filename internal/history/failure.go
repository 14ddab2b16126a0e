package history

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"syscall"
)

// Failure is how an operation that ended in an error failed, as data for
// a reader: a report says "got no answer" only of a timeout, and "could
// not connect" of a refused connection. It never changes the operation's
// Type: the lock's own classification (lock.ErrNotAcquired, …) decides
// fail or info, since a refused connection on a lock's second command says
// nothing of its first.
type Failure string

// The failures FailureOf tells apart.
const (
	// FailTimeout: no reply within the operation's deadline.
	FailTimeout Failure = "timeout"
	// FailRefused: the connection was refused (the node was down or its
	// link closed): the command that met it was never sent.
	FailRefused Failure = "refused"
	// FailReset: the connection closed before the reply arrived.
	FailReset Failure = "reset"
	// FailOther: any other error.
	FailOther Failure = "error"
)

// FailedAs is an error whose Failure is its Cause's, whatever else Err
// wraps: an operation that failed on Cause and then again in its clean-up
// (a WAIT lock's grant whose WAIT lost its connection, and whose give-back
// could then not connect) failed as Cause did. Err is the whole error, for
// its text and for errors.Is; Cause only decides the Failure.
type FailedAs struct {
	Err, Cause error
}

func (e *FailedAs) Error() string { return e.Err.Error() }
func (e *FailedAs) Unwrap() error { return e.Err }

// FailureOf classifies err: "" for nil, else one of the Fail* constants.
// A FailedAs in err's chain is classified by its Cause. Otherwise errors
// are matched with errors.Is/As through any wrapping, first match wins in
// the order refused, reset, timeout.
func FailureOf(err error) Failure {
	var ne net.Error
	var as *FailedAs
	switch {
	case err == nil:
		return ""
	case errors.As(err, &as):
		return FailureOf(as.Cause)
	case errors.Is(err, syscall.ECONNREFUSED):
		return FailRefused
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed):
		return FailReset
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded),
		errors.As(err, &ne) && ne.Timeout():
		return FailTimeout
	default:
		return FailOther
	}
}
