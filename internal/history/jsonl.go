package history

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// MaxLineBytes bounds one line of a history file; a longer line is an error,
// not an out-of-memory.
const MaxLineBytes = 1 << 20

// Encode writes h as JSON Lines: the header, then one compact object per op.
func Encode(w io.Writer, h History) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	hd := h.Header
	hd.Format, hd.Version = Format, Version
	if err := enc.Encode(hd); err != nil {
		return fmt.Errorf("write history header: %w", err)
	}
	for i := range h.Ops {
		if err := enc.Encode(&h.Ops[i]); err != nil {
			return fmt.Errorf("write history op %d: %w", i, err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write history: %w", err)
	}
	return nil
}

// WriteFile writes h to path (created or truncated).
func WriteFile(path string, h History) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("create history: %w", err)
	}
	if err := Encode(f, h); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close history: %w", err)
	}
	return nil
}

// ReadError locates a problem in a history file.
type ReadError struct {
	Line int // 1-based
	Msg  string
}

func (e *ReadError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Decode parses a history file. The first line must be a header of this
// format and version. Errors are *ReadError values naming the line.
func Decode(r io.Reader) (History, error) {
	var h History
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), MaxLineBytes)
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if len(strings.TrimSpace(string(b))) == 0 {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		if line == 1 {
			if err := dec.Decode(&h.Header); err != nil {
				return h, &ReadError{line, "header: " + err.Error()}
			}
			if h.Header.Format != Format {
				return h, &ReadError{line, fmt.Sprintf("header: format %q, want %q", h.Header.Format, Format)}
			}
			if h.Header.Version != Version {
				return h, &ReadError{line, fmt.Sprintf("header: version %d, this locksim reads version %d", h.Header.Version, Version)}
			}
			continue
		}
		var op Op
		if err := dec.Decode(&op); err != nil {
			return h, &ReadError{line, "op: " + err.Error()}
		}
		if err := validOp(op, len(h.Ops)); err != nil {
			return h, &ReadError{line, err.Error()}
		}
		h.Ops = append(h.Ops, op)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return h, &ReadError{line + 1, fmt.Sprintf("line longer than %d bytes", MaxLineBytes)}
		}
		return h, fmt.Errorf("read history: %w", err)
	}
	if line == 0 {
		return h, &ReadError{1, "empty file: no header"}
	}
	return h, nil
}

func validOp(op Op, want int) error {
	switch {
	case op.Index != want:
		return fmt.Errorf("op index %d, want %d (ops must be dense and in order)", op.Index, want)
	case op.Type != OK && op.Type != Fail && op.Type != Info:
		return fmt.Errorf("op %d: type %q, want ok, fail or info", op.Index, op.Type)
	case op.F == "":
		return fmt.Errorf("op %d: f is empty", op.Index)
	case op.Invoke < 0:
		return fmt.Errorf("op %d: invoke_ns %d is negative", op.Index, op.Invoke)
	case op.Complete >= 0 && op.Complete < op.Invoke:
		return fmt.Errorf("op %d: complete_ns %d before invoke_ns %d", op.Index, op.Complete, op.Invoke)
	case op.Complete < 0 && op.Type != Info:
		return fmt.Errorf("op %d: open operation (complete_ns %d) must be info", op.Index, op.Complete)
	}
	return nil
}

// ReadFile reads the history at path.
func ReadFile(path string) (History, error) {
	f, err := os.Open(path)
	if err != nil {
		return History{}, fmt.Errorf("open history: %w", err)
	}
	defer f.Close()
	h, err := Decode(f)
	if err != nil {
		return h, fmt.Errorf("%s: %w", path, err)
	}
	return h, nil
}
