package session

import (
	"github.com/kakure/kakure/protocol"

	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync/atomic"
)

// The record and the secrets file are append-only logs (docs/record.md,
// "Storage"): one line per message or change, synced once before the
// message that depends on it leaves. A crash can only leave a torn last
// line (bytes after the last newline); it is dropped on reading, since
// nothing in it was ever sent.

// bytesWritten counts the bytes this program's storage wrote to files
// (benchmarks report it against the size of the files left).
var bytesWritten atomic.Int64

// syncsDone counts the fdatasync calls of this program's storage
// (benchmarks report them per try).
var syncsDone atomic.Int64

// appendFile is a file written only at its end, synced with fdatasync.
type appendFile struct {
	path string
	f    *os.File
	// size is the length of the file's valid part: where the next line
	// goes (a torn tail beyond it is cut before the first write).
	size int64
}

// open opens the file for appending, creating it (mode 0600) if needed,
// and cuts it to its valid size.
func (a *appendFile) open() error {
	if a.f != nil {
		return nil
	}
	_, statErr := os.Stat(a.path)
	f, err := os.OpenFile(a.path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("protocol: open %s: %w", a.path, err)
	}
	if err := f.Truncate(a.size); err != nil {
		f.Close()
		return fmt.Errorf("protocol: cut the torn tail of %s: %w", a.path, err)
	}
	a.f = f
	if errors.Is(statErr, os.ErrNotExist) {
		// A new file: its name must survive a crash too.
		if d, err := os.Open(filepath.Dir(a.path)); err == nil {
			d.Sync()
			d.Close()
		}
	}
	return nil
}

// write appends data at the file's valid end, and syncs it if durable.
func (a *appendFile) write(data []byte, durable bool) error {
	if err := a.open(); err != nil {
		return err
	}
	if _, err := a.f.WriteAt(data, a.size); err != nil {
		return fmt.Errorf("protocol: append to %s: %w", a.path, err)
	}
	a.size += int64(len(data))
	bytesWritten.Add(int64(len(data)))
	if durable {
		return a.sync()
	}
	return nil
}

// sync makes what was written durable.
func (a *appendFile) sync() error {
	if a.f == nil {
		return nil
	}
	syncsDone.Add(1)
	if err := fdatasync(a.f); err != nil {
		return fmt.Errorf("protocol: sync %s: %w", a.path, err)
	}
	return nil
}

// cut shortens the file's valid part to size (a finished record reopened
// for one more message loses its closing line).
func (a *appendFile) cut(size int64) error {
	if err := a.open(); err != nil {
		return err
	}
	if err := a.f.Truncate(size); err != nil {
		return fmt.Errorf("protocol: reopen %s: %w", a.path, err)
	}
	a.size = size
	return nil
}

// close closes the file.
func (a *appendFile) close() {
	if a.f != nil {
		a.f.Close()
		a.f = nil
	}
}

// recordLog writes a game's transcript to its record file as it grows.
type recordLog struct {
	file appendFile
	// written is how many of the transcript's messages the file holds;
	// closed whether it ends with the closing line.
	written int
	closed  bool
	// hook, if set, is called between an append and its sync (tests).
	hook func(where string)
}

// newRecordLog returns the writer of a record at path that holds the
// first written messages in its first size bytes (closed: and the
// closing line).
func newRecordLog(path string, size int64, written int, closed bool) *recordLog {
	return &recordLog{file: appendFile{path: path, size: size}, written: written, closed: closed}
}

// append writes the messages of t the file lacks, and the closing line
// if finished; it syncs them if durable.
func (r *recordLog) append(t *protocol.Transcript, durable, finished bool) error {
	var b bytes.Buffer
	if r.written < len(t.Messages) {
		if r.closed {
			if err := r.file.cut(r.file.size - int64(len(protocol.RecordClose))); err != nil {
				return err
			}
			r.closed = false
		}
		if r.written == 0 {
			head, err := protocol.RecordHead(t)
			if err != nil {
				return err
			}
			b.Write(head)
		}
		for i := r.written; i < len(t.Messages); i++ {
			line, err := t.MessageLine(i)
			if err != nil {
				return err
			}
			b.Write(line)
		}
	}
	if finished && !r.closed && len(t.Messages) > 0 {
		b.WriteString(protocol.RecordClose)
	}
	if b.Len() == 0 {
		if durable {
			return r.file.sync()
		}
		return nil
	}
	if err := r.file.write(b.Bytes(), false); err != nil {
		return err
	}
	r.written = len(t.Messages)
	r.closed = finished && len(t.Messages) > 0
	if r.hook != nil {
		r.hook("record-appended")
	}
	if durable {
		return r.file.sync()
	}
	return nil
}

// secretsLog writes a peer's secrets file: its first line the whole
// document, each later line a change to it (a merge patch, see
// secretsPatch).
type secretsLog struct {
	file appendFile
	// raw is the encoding of the document the file holds; nil, with
	// doc set, until something needs it (held).
	raw []byte
	// doc is that document as its members, when the last save gave it
	// so (saveDoc, PN-D24); nil when the document came as bytes (a
	// resume, a variant without a docObject).
	doc *docObject
	// hook, if set, is called between an append and its sync (tests).
	hook func(where string)
}

// held returns the encoding of the document the file holds (nil before
// the first save).
func (s *secretsLog) held() []byte {
	if s.raw == nil && s.doc != nil {
		s.raw = s.doc.json()
	}
	return s.raw
}

// save makes the file hold data (a secrets document): it appends the
// change from what it holds and syncs it. The same document again
// writes nothing.
func (s *secretsLog) save(data []byte) error {
	if bytes.Equal(data, s.held()) {
		return nil
	}
	return s.store(data, nil)
}

// saveDoc is save of d's encoding, diffed member by member against the
// last document when that came as a docObject too (PN-D24).
func (s *secretsLog) saveDoc(d *docObject) error { return s.store(nil, d) }

// store is save of data, or of d when data is nil.
func (s *secretsLog) store(data []byte, d *docObject) error {
	first := s.raw == nil && s.doc == nil
	docLen := len(data)
	if d != nil {
		docLen = d.size()
	}
	var line []byte
	if first {
		if data == nil {
			data = d.json()
		}
		if !json.Valid(data) {
			return errors.New("protocol: secrets: not a JSON document")
		}
		line = data
	} else {
		var patch any
		var changed bool
		var err error
		if d != nil && s.doc != nil {
			patch, changed, err = docPatch(s.doc, d)
			if secretsMemoCheck {
				checkDocPatch(s.held(), d, patch, changed, err)
			}
		} else {
			if data == nil {
				data = d.json()
			}
			patch, changed, err = rawSecretsPatch(s.held(), data)
		}
		if err != nil {
			return fmt.Errorf("protocol: secrets: %w", err)
		}
		if !changed {
			s.raw, s.doc = data, d
			return nil
		}
		var buf bytes.Buffer
		if err := encodeSecretsPatch(&buf, patch); err != nil {
			return fmt.Errorf("protocol: secrets: %w", err)
		}
		line = buf.Bytes()
	}
	if !first && s.file.size+int64(len(line))+1 > secretsCompactAt(docLen) {
		// The log would hold more than its document is worth: the
		// document alone replaces it (REC-D16).
		if data == nil {
			data = d.json()
		}
		if err := s.rewrite(data); err != nil {
			return err
		}
		s.doc = d // the document the rewrite wrote, as its members
		return nil
	}
	if err := s.file.write(append(line, '\n'), false); err != nil {
		return err
	}
	s.raw, s.doc = data, d
	if s.hook != nil {
		s.hook("secrets-appended")
	}
	return s.file.sync()
}

// checkDocPatch panics if the patch docPatch gave differs from
// rawSecretsPatch's of the encodings (tests, secretsMemoCheck).
func checkDocPatch(old []byte, d *docObject, patch any, changed bool, err error) {
	data := d.json()
	if len(data) != d.size() {
		panic(fmt.Sprintf("secrets document: size %d, encoded %d bytes", d.size(), len(data)))
	}
	if !json.Valid(data) {
		panic("secrets document: not JSON")
	}
	want, wantChanged, wantErr := rawSecretsPatch(old, data)
	if (err == nil) != (wantErr == nil) || changed != wantChanged {
		panic(fmt.Sprintf("secrets patch by members: changed %v err %v, by encodings %v %v", changed, err, wantChanged, wantErr))
	}
	if !changed {
		return
	}
	var got, exp bytes.Buffer
	if err := encodeSecretsPatch(&got, patch); err != nil {
		panic(err)
	}
	if err := encodeSecretsPatch(&exp, want); err != nil {
		panic(err)
	}
	if !bytes.Equal(got.Bytes(), exp.Bytes()) {
		panic(fmt.Sprintf("secrets patch by members differs from the encodings':\n%s\n%s", got.Bytes(), exp.Bytes()))
	}
}

// secretsCompactRatio and secretsCompactMin say when a secrets log is
// rewritten as its document alone (REC-D16): when a change would make
// the file longer than secretsCompactRatio times the document and than
// secretsCompactMin bytes. Each rewrite writes the document once, after
// at least (ratio − 1) documents' worth of changes were appended since
// the last one, so the bytes written grow by at most 1/(ratio − 1): a
// quarter at 5 (REC-D19; a half at 3, REC-D16), for a file of up to five
// documents (1.6 MB on 9×9 at λ = 4).
var (
	secretsCompactRatio int64 = 5
	secretsCompactMin   int64 = 64 << 10
)

// secretsCompactAt returns the file length past which a secrets log
// whose document is docLen bytes long is rewritten.
func secretsCompactAt(docLen int) int64 {
	return max(secretsCompactRatio*int64(docLen+1), secretsCompactMin)
}

// compact rewrites the file as its document alone if it holds more
// than that (a finished game's secrets, REC-D16).
func (s *secretsLog) compact() error {
	if s.held() == nil || s.file.size <= int64(len(s.raw))+1 {
		return nil
	}
	return s.rewrite(s.raw)
}

// newPath is where rewrite writes the new file before it renames it.
func (s *secretsLog) newPath() string { return s.file.path + ".new" }

// rewrite replaces the file with one holding data (a secrets document)
// as its only line, crash-safely: the new file is written and synced
// under another name, then renamed over the log and the directory
// synced. A crash before the rename leaves the log as it was (the file
// under the other name is overwritten by the next rewrite), one after it
// the new file; either folds to what the secrets held before (or, in the
// new file, after) this change, and nothing that depends on the change
// was sent before rewrite returns.
func (s *secretsLog) rewrite(data []byte) error {
	tmp := s.newPath()
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("protocol: rewrite secrets: %w", err)
	}
	line := append(append(make([]byte, 0, len(data)+1), data...), '\n')
	if _, err := f.Write(line); err != nil {
		f.Close()
		return fmt.Errorf("protocol: rewrite secrets %s: %w", tmp, err)
	}
	bytesWritten.Add(int64(len(line)))
	syncsDone.Add(1)
	if err := fdatasync(f); err != nil {
		f.Close()
		return fmt.Errorf("protocol: sync %s: %w", tmp, err)
	}
	if s.hook != nil {
		s.hook("secrets-rewritten")
	}
	if err := os.Rename(tmp, s.file.path); err != nil {
		f.Close()
		return fmt.Errorf("protocol: rewrite secrets: %w", err)
	}
	// The log is the new file now, whether or not the rename is durable
	// yet: later lines go to it.
	s.file.close()
	s.file.f, s.file.size = f, int64(len(line))
	s.raw = data
	d, err := os.Open(filepath.Dir(s.file.path))
	if err != nil {
		return fmt.Errorf("protocol: rewrite secrets: %w", err)
	}
	syncsDone.Add(1)
	err = d.Sync()
	d.Close()
	if err != nil {
		return fmt.Errorf("protocol: rewrite secrets: sync the directory: %w", err)
	}
	return nil
}

// parseSecretsLog folds a secrets file into its current document and
// returns it with the length of the file's valid part (a torn last line
// is left out).
func parseSecretsLog(data []byte) (doc []byte, valid int, err error) {
	lines, valid := protocol.SplitLog(data)
	if len(lines) == 0 {
		// A file of one document without a newline (as this program
		// wrote before its secrets became a log) is whole, not torn.
		if json.Valid(data) && len(bytes.TrimSpace(data)) > 0 {
			return bytes.TrimSpace(data), len(data), nil
		}
		return nil, 0, errNoSecrets
	}
	var cur any
	for i, line := range lines {
		v, err := decodeJSONValue(line)
		if err != nil {
			return nil, valid, fmt.Errorf("protocol: secrets file line %d: %w", i+1, err)
		}
		if i == 0 {
			cur = v
			continue
		}
		patch, ok := v.(map[string]any)
		if !ok {
			return nil, valid, fmt.Errorf("protocol: secrets file line %d: not an object", i+1)
		}
		if cur, err = applySecretsPatch(cur, patch); err != nil {
			return nil, valid, fmt.Errorf("protocol: secrets file line %d: %w", i+1, err)
		}
	}
	doc, err = json.Marshal(cur)
	return doc, valid, err
}

// errNoSecrets reports a secrets file that does not exist or whose first
// line never reached the disk whole.
var errNoSecrets = errors.New("protocol: no secrets saved")

// loadSecrets reads a secrets file: its document (nil and errNoSecrets
// if none was saved whole) and the length of its valid part.
func loadSecrets(path string) (doc []byte, valid int, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, 0, errNoSecrets
	}
	if err != nil {
		return nil, 0, err
	}
	return parseSecretsLog(data)
}

// ReadSecrets returns the secrets document a secrets file holds (its
// lines folded), for tools and tests that read it; a file being written
// for the first time, without a complete line yet, holds "{}".
func ReadSecrets(data []byte) ([]byte, error) {
	doc, _, err := parseSecretsLog(data)
	if errors.Is(err, errNoSecrets) {
		return []byte("{}"), nil
	}
	return doc, err
}

// decodeJSONValue decodes one JSON value, keeping numbers as written.
func decodeJSONValue(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("data after the end")
	}
	return v, nil
}

// appendKey marks an array's extension in a secrets patch: {"+": [..]}
// adds the elements to the end of the array it patches.
const appendKey = "+"

// secretsPatch returns the change from old to new objects as a JSON
// merge patch (RFC 7386: changed keys with their new value, removed
// keys as null, objects patched key by key) with one addition: an array
// that grew at its end is patched with {"+": [the new elements]}, so
// that a log of the growing lists of a game stays linear in its length.
func secretsPatch(old, new any) any {
	om, ok1 := old.(map[string]any)
	nm, ok2 := new.(map[string]any)
	if !ok1 || !ok2 {
		if oa, ok := old.([]any); ok {
			if na, ok := new.([]any); ok && len(na) > len(oa) && reflect.DeepEqual(oa, na[:len(oa)]) {
				return map[string]any{appendKey: na[len(oa):]}
			}
		}
		return new
	}
	patch := map[string]any{}
	for k, ov := range om {
		nv, ok := nm[k]
		switch {
		case !ok:
			patch[k] = nil
		case !reflect.DeepEqual(ov, nv):
			patch[k] = secretsPatch(ov, nv)
		}
	}
	for k, nv := range nm {
		if _, ok := om[k]; !ok {
			patch[k] = nv
		}
	}
	return patch
}

// applySecretsPatch applies a patch made by secretsPatch to doc.
func applySecretsPatch(doc any, patch map[string]any) (any, error) {
	if add, ok := patch[appendKey]; ok && len(patch) == 1 {
		arr, ok1 := doc.([]any)
		more, ok2 := add.([]any)
		if !ok1 || !ok2 {
			return nil, errors.New("an extension of something that is not a list")
		}
		return append(append([]any(nil), arr...), more...), nil
	}
	m, ok := doc.(map[string]any)
	if !ok {
		m = map[string]any{}
	} else {
		c := make(map[string]any, len(m))
		for k, v := range m {
			c[k] = v
		}
		m = c
	}
	for k, pv := range patch {
		switch pv := pv.(type) {
		case nil:
			delete(m, k)
		case map[string]any:
			v, err := applySecretsPatch(m[k], pv)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			m[k] = v
		default:
			m[k] = pv
		}
	}
	return m, nil
}
