package observe

import (
	"bytes"
	"context"
	"net"
	"strconv"
	"sync"
	"time"
)

// Dialer returns a go-redis Options.Dialer whose connections name
// themselves name (CLIENT SETNAME) at no cost in round trips: the command
// travels in front of the connection's first write, and its one-line reply
// is taken off the front of what the connection reads. go-redis's own
// ClientName option names a connection with an extra round trip after its
// HELLO, which doubled the handshake and, under load, made a client whose
// per-node timeout is tens of ms unable to reconnect to a restarted node.
// timeout bounds the TCP dial (wall time); the caller's context still
// applies.
func Dialer(name string, timeout time.Duration) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		d := net.Dialer{Timeout: timeout}
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &namedConn{Conn: c, prefix: setNameCommand(name)}, nil
	}
}

// setNameCommand is CLIENT SETNAME name as a RESP array.
func setNameCommand(name string) []byte {
	var b bytes.Buffer
	b.WriteString("*3\r\n")
	for _, a := range []string{"CLIENT", "SETNAME", name} {
		b.WriteString("$" + strconv.Itoa(len(a)) + "\r\n" + a + "\r\n")
	}
	return b.Bytes()
}

// namedConn sends prefix before its first write and drops the first reply
// line (the answer to prefix: "+OK" or an error, one line before any
// HELLO) before its first read returns data.
type namedConn struct {
	net.Conn
	wmu     sync.Mutex
	prefix  []byte // nil once sent
	rmu     sync.Mutex
	skipped bool // the reply line is consumed
}

func (c *namedConn) Write(p []byte) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.prefix != nil {
		buf := append(c.prefix, p...)
		c.prefix = nil
		n, err := c.Conn.Write(buf)
		n -= len(buf) - len(p)
		return max(n, 0), err
	}
	return c.Conn.Write(p)
}

func (c *namedConn) Read(p []byte) (int, error) {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	for !c.skipped {
		n, err := c.Conn.Read(p)
		if i := bytes.IndexByte(p[:n], '\n'); i >= 0 {
			c.skipped = true
			rest := copy(p, p[i+1:n])
			if rest > 0 || err != nil {
				return rest, err
			}
			break
		}
		if err != nil {
			return 0, err
		}
	}
	return c.Conn.Read(p)
}
