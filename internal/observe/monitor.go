package observe

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Line is one line of Redis's MONITOR output:
//
//	1701417600.123456 [0 127.0.0.1:53530] "SET" "invoice-1" "tok" "NX" "PX" "600"
//	1701417600.123470 [0 lua] "del" "invoice-1"
//
// Time is the node's own clock (gettimeofday, µs); Addr is the sender's
// address as the node sees it, "lua" for a command run inside a script
// (it follows the EVAL that ran it), "unix:…" for a socket; Args are the
// command and its arguments, unquoted, the command name as sent.
type Line struct {
	Time time.Time
	DB   int
	Addr string
	Args []string
}

// Lua reports whether the command ran inside a Lua script.
func (l Line) Lua() bool { return l.Addr == "lua" }

// ParseLine parses one MONITOR line (without its "+" and line ending).
// Arguments are quoted as Redis's sdscatrepr quotes them: \\ \" \n \r \t
// \a \b and \xHH.
func ParseLine(s string) (Line, error) {
	var l Line
	sp := strings.IndexByte(s, ' ')
	if sp < 0 {
		return l, fmt.Errorf("monitor line %q: no timestamp", clip(s))
	}
	t, err := parseTime(s[:sp])
	if err != nil {
		return l, fmt.Errorf("monitor line %q: %w", clip(s), err)
	}
	l.Time = t
	rest := s[sp+1:]
	if !strings.HasPrefix(rest, "[") {
		return l, fmt.Errorf("monitor line %q: no [db addr]", clip(s))
	}
	end := strings.IndexByte(rest, ']')
	if end < 0 {
		return l, fmt.Errorf("monitor line %q: no closing ]", clip(s))
	}
	db, addr, ok := strings.Cut(rest[1:end], " ")
	if !ok {
		return l, fmt.Errorf("monitor line %q: [db addr] without an address", clip(s))
	}
	if l.DB, err = strconv.Atoi(db); err != nil {
		return l, fmt.Errorf("monitor line %q: db %q", clip(s), db)
	}
	l.Addr = addr
	l.Args, err = parseArgs(rest[end+1:])
	if err != nil {
		return l, fmt.Errorf("monitor line %q: %w", clip(s), err)
	}
	return l, nil
}

// parseTime reads "seconds.micros" since the Unix epoch.
func parseTime(s string) (time.Time, error) {
	sec, frac, _ := strings.Cut(s, ".")
	secs, err := strconv.ParseInt(sec, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("timestamp %q", s)
	}
	var ns int64
	if frac != "" {
		if len(frac) > 9 {
			frac = frac[:9]
		}
		n, err := strconv.ParseInt(frac, 10, 64)
		if err != nil {
			return time.Time{}, fmt.Errorf("timestamp %q", s)
		}
		for i := len(frac); i < 9; i++ {
			n *= 10
		}
		ns = n
	}
	return time.Unix(secs, ns), nil
}

var errQuote = errors.New("bad quoting")

// parseArgs reads ` "a" "b\n" …` into its unquoted strings.
func parseArgs(s string) ([]string, error) {
	var out []string
	var b strings.Builder
	i := 0
	for {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i >= len(s) {
			return out, nil
		}
		if s[i] != '"' {
			return nil, errQuote
		}
		i++
		b.Reset()
		closed := false
		for i < len(s) && !closed {
			c := s[i]
			switch {
			case c == '"':
				closed = true
				i++
			case c == '\\' && i+1 < len(s):
				i++
				switch e := s[i]; e {
				case 'n':
					b.WriteByte('\n')
				case 'r':
					b.WriteByte('\r')
				case 't':
					b.WriteByte('\t')
				case 'a':
					b.WriteByte('\a')
				case 'b':
					b.WriteByte('\b')
				case 'x':
					if i+2 >= len(s) {
						return nil, errQuote
					}
					v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
					if err != nil {
						return nil, errQuote
					}
					b.WriteByte(byte(v))
					i += 2
				default: // \\ and \"
					b.WriteByte(e)
				}
				i++
			default:
				b.WriteByte(c)
				i++
			}
		}
		if !closed {
			return nil, errQuote
		}
		out = append(out, b.String())
	}
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "…"
	}
	return s
}
