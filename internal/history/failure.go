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

// FailureOf classifies err: "" for nil, else one of the Fail* constants.
// Errors are matched with errors.Is/As through any wrapping, first match
// wins in the order refused, reset, timeout.
func FailureOf(err error) Failure {
	var ne net.Error
	switch {
	case err == nil:
		return ""
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
