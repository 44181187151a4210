package protocol

// The wire form of the variants' own options, made from their
// descriptions (engine.VariantOption, issue 33): a new variant's option
// travels in OptionsBody without a field written for it.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/kakure/kakure/engine"
)

// wireOptions are the options of every variant, in the order their fields
// follow komi on the wire: the descriptors' order.
func wireOptions() []engine.VariantOption {
	var opts []engine.VariantOption
	for _, d := range engine.Descriptors {
		opts = append(opts, d.Options...)
	}
	return opts
}

// ownOptions writes the options o sets, as OptionsBody.Own holds them:
// "key=value" lines in the descriptors' order, values as Format writes
// them. An option is set when it is not its type's zero value (the wire
// leaves those out, as omitempty did).
func ownOptions(o engine.Options) string {
	var lines []string
	for _, opt := range wireOptions() {
		if v := opt.Format(o); !zeroWireValue(opt, v) {
			lines = append(lines, opt.Key+"="+v)
		}
	}
	return strings.Join(lines, "\n")
}

// zeroWireValue tells a value the wire leaves out: "", 0 or false.
func zeroWireValue(opt engine.VariantOption, v string) bool {
	switch opt.Type {
	case engine.OptionInt:
		return v == "0"
	case engine.OptionBool:
		return v == "false"
	}
	return v == ""
}

// ownValues reads OptionsBody.Own back: the value of each key.
func ownValues(own string) map[string]string {
	values := map[string]string{}
	if own == "" {
		return values
	}
	for _, line := range strings.Split(own, "\n") {
		k, v, _ := strings.Cut(line, "=")
		values[k] = v
	}
	return values
}

// readOwnOptions sets every option of every variant in o from b: its
// value or, absent, its type's zero value as set on purpose (0 cards is
// no card, not the default), as the fields written by hand did. Another
// variant's option set on the wire is then refused by Normalize.
func (b OptionsBody) readOwnOptions(o *engine.Options) error {
	values := ownValues(b.Own)
	for _, opt := range wireOptions() {
		v, present := values[opt.Key]
		if !present {
			v = zeroWire(opt)
		}
		if err := opt.Parse(o, v); err != nil {
			return fmt.Errorf("%w: %v", engine.ErrBadOptions, err)
		}
	}
	return nil
}

// zeroWire is the value of an option the wire leaves out.
func zeroWire(opt engine.VariantOption) string {
	switch opt.Type {
	case engine.OptionInt:
		return "0"
	case engine.OptionBool:
		return "false"
	}
	return ""
}

// optionsBodyPlain is OptionsBody without its JSON methods.
type optionsBodyPlain OptionsBody

// optionsBodyHead are the fields before the variants' own options.
type optionsBodyHead struct {
	Variant string  `json:"variant"`
	Size    int     `json:"size"`
	Komi    float64 `json:"komi"`
}

// MarshalJSON writes the body with each of its own options as a field of
// its own after komi, typed as the option's description says (a string,
// a number, a bool): the bytes the body had when each option was a field
// written by hand.
func (b OptionsBody) MarshalJSON() ([]byte, error) {
	all, err := json.Marshal(optionsBodyPlain(b))
	if err != nil {
		return nil, err
	}
	head, err := json.Marshal(optionsBodyHead{b.Variant, b.Size, b.Komi})
	if err != nil {
		return nil, err
	}
	prefix := head[:len(head)-1]
	if !bytes.HasPrefix(all, prefix) {
		return nil, fmt.Errorf("protocol: options body %s does not start with %s", all, prefix)
	}
	var out bytes.Buffer
	out.Write(prefix)
	values := ownValues(b.Own)
	for _, opt := range wireOptions() {
		v, ok := values[opt.Key]
		if !ok {
			continue
		}
		var field any = v
		switch opt.Type {
		case engine.OptionInt:
			n, err := strconv.Atoi(v)
			if err != nil {
				return nil, fmt.Errorf("protocol: option %s=%q is not a number", opt.Key, v)
			}
			field = n
		case engine.OptionBool:
			t, err := strconv.ParseBool(v)
			if err != nil {
				return nil, fmt.Errorf("protocol: option %s=%q is not a bool", opt.Key, v)
			}
			field = t
		}
		key, _ := json.Marshal(opt.Key)
		value, err := json.Marshal(field)
		if err != nil {
			return nil, err
		}
		out.WriteByte(',')
		out.Write(key)
		out.WriteByte(':')
		out.Write(value)
	}
	out.Write(all[len(prefix):])
	return out.Bytes(), nil
}

// UnmarshalJSON reads the body strictly, as decodeBody reads the message
// around it: a field that is neither one of OptionsBody's nor an option
// of a variant is an error, and each option's value has the JSON type its
// description says.
func (b *OptionsBody) UnmarshalJSON(data []byte) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return err
	}
	var lines []string
	for _, opt := range wireOptions() {
		raw, ok := fields[opt.Key]
		if !ok {
			continue
		}
		delete(fields, opt.Key)
		var v string
		switch opt.Type {
		case engine.OptionInt:
			var n int
			if err := json.Unmarshal(raw, &n); err != nil {
				return fmt.Errorf("option %s: %w", opt.Key, err)
			}
			v = strconv.Itoa(n)
		case engine.OptionBool:
			var t bool
			if err := json.Unmarshal(raw, &t); err != nil {
				return fmt.Errorf("option %s: %w", opt.Key, err)
			}
			v = strconv.FormatBool(t)
		default:
			if err := json.Unmarshal(raw, &v); err != nil {
				return fmt.Errorf("option %s: %w", opt.Key, err)
			}
		}
		if !zeroWireValue(opt, v) {
			lines = append(lines, opt.Key+"="+v)
		}
	}
	rest, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	var plain optionsBodyPlain
	dec := json.NewDecoder(bytes.NewReader(rest))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&plain); err != nil {
		return err
	}
	plain.Own = strings.Join(lines, "\n")
	*b = OptionsBody(plain)
	return nil
}
