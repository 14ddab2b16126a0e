package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
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
	hd.Format, hd.Version, hd.Streaming = Format, Version, false
	hd.Cut = hd.Cut || h.Cut
	hd.Ops = len(h.Ops)
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

// WriteFile writes h to path, replacing any file there (a streamed one,
// say) in one step: the history is written to a temporary file beside it
// and renamed over path.
func WriteFile(path string, h History) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("create history: %w", err)
	}
	tmp := f.Name()
	if err := Encode(f, h); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("close history: %w", err)
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write history: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write history: %w", err)
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
// format and version (a version 1 file, from a locksim before structured
// faults, is refused with a message saying so), and the history must keep
// the invariants of a run (Validate: one outstanding operation per
// process, no reserved identity on a client's operation, times within the
// run, fault targets that exist, the workload's parameters). Errors are
// *ReadError values naming the line and the reason.
//
// A finished run's file holds its operations dense and in index order, and
// anything else is an error. A file written by Recorder.Stream whose run
// was cut off (its header still says streaming) may hold operations in any
// order, an operation more than once (the last line of an index wins: it
// was written open, then completed) and gaps (operations never written):
// Decode sorts them by index, renumbers them densely and sets
// History.Cut. A last line cut off in the middle (no newline, not JSON) is
// dropped and also sets Cut, and so does a finished file holding fewer
// operations than its header's Ops (cut at a line boundary); one holding
// more is an error.
func Decode(r io.Reader) (History, error) {
	var h History
	br := bufio.NewReaderSize(r, 64*1024)
	line := 0
	byIndex := map[int]int{} // streamed: index → position in h.Ops
	var lines []int          // the line of each operation in h.Ops
	for {
		b, rerr := readLine(br)
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			if errors.Is(rerr, bufio.ErrTooLong) {
				return h, &ReadError{line + 1, fmt.Sprintf("line longer than %d bytes", MaxLineBytes)}
			}
			return h, fmt.Errorf("read history: %w", rerr)
		}
		last := errors.Is(rerr, io.EOF) // b is the file's last line, without a newline
		if len(b) == 0 && last {
			break
		}
		line++
		if len(strings.TrimSpace(string(b))) == 0 {
			if last {
				break
			}
			continue
		}
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		if line == 1 {
			if err := dec.Decode(&h.Header); err != nil {
				if v, ok := versionOf(b); ok && v != Version {
					return h, &ReadError{line, versionMsg(v)}
				}
				return h, &ReadError{line, "header: " + err.Error()}
			}
			if h.Header.Format != Format {
				return h, &ReadError{line, fmt.Sprintf("header: format %q, want %q", h.Header.Format, Format)}
			}
			if h.Header.Version != Version {
				return h, &ReadError{line, versionMsg(h.Header.Version)}
			}
			h.Cut = h.Header.Streaming || h.Header.Cut
			if last {
				break
			}
			continue
		}
		var op Op
		if err := dec.Decode(&op); err != nil {
			if last && !json.Valid(b) {
				h.Cut = true // the writer died in the middle of this line
				break
			}
			return h, &ReadError{line, "op: " + err.Error()}
		}
		want := len(h.Ops)
		if h.Header.Streaming {
			want = op.Index
		}
		if err := validOp(op, want); err != nil {
			return h, &ReadError{line, err.Error()}
		}
		if h.Header.Streaming {
			if at, ok := byIndex[op.Index]; ok {
				h.Ops[at], lines[at] = op, line
			} else {
				byIndex[op.Index] = len(h.Ops)
				h.Ops = append(h.Ops, op)
				lines = append(lines, line)
			}
		} else {
			h.Ops = append(h.Ops, op)
			lines = append(lines, line)
		}
		if last {
			break
		}
	}
	if line == 0 {
		return h, &ReadError{1, "empty file: no header"}
	}
	if n := h.Header.Ops; n > 0 && !h.Header.Streaming {
		if len(h.Ops) > n {
			return h, &ReadError{lines[n], fmt.Sprintf("the header says the file holds %d operations; this is operation %d", n, n+1)}
		}
		if len(h.Ops) < n {
			h.Cut = true // cut at a line boundary: the lines after are gone
		}
	}
	if h.Header.Streaming {
		order := make([]int, len(h.Ops))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int { return h.Ops[a].Index - h.Ops[b].Index })
		ops, ls := make([]Op, len(order)), make([]int, len(order))
		for i, j := range order {
			ops[i], ls[i] = h.Ops[j], lines[j]
			ops[i].Index = i
		}
		h.Ops, lines = ops, ls
	}
	if err := validate(h, lines); err != nil {
		return h, err
	}
	return h, nil
}

// readLine reads one line without its line ending. io.EOF comes with the
// file's last line when it does not end in a newline (and with nothing at
// the very end).
func readLine(br *bufio.Reader) ([]byte, error) {
	var out []byte
	for {
		chunk, err := br.ReadSlice('\n')
		out = append(out, chunk...)
		if len(out) > MaxLineBytes+1 {
			return nil, bufio.ErrTooLong
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil:
			return out, err
		}
		return bytes.TrimRight(out, "\r\n"), nil
	}
}

// versionOf reads the version field of a header line that did not decode.
func versionOf(b []byte) (int, bool) {
	var v struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if json.Unmarshal(b, &v) != nil || v.Format != Format {
		return 0, false
	}
	return v.Version, true
}

func versionMsg(v int) string {
	if v == 1 {
		return "header: history format version 1 was written by an older locksim (faults as prose, TTLs in scenario time); this locksim reads version 2. Re-run the scenario to get a version 2 history"
	}
	return fmt.Sprintf("header: history format version %d, this locksim reads version %d", v, Version)
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

// FileName is a history's file name in a run's report directory.
const FileName = "history.jsonl"

// FilesUnder lists every history file (FileName) below dir, in walk
// order: the runs of a `locksim run --out` directory. The error is the
// walk's.
func FilesUnder(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == FileName {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("histories under %s: %w", dir, err)
	}
	return files, nil
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
