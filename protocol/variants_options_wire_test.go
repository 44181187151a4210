package protocol_test

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/varianttest"
	"github.com/kakure/kakure/protocol"
)

// TestEveryOptionOnTheWire checks that every option of every descriptor
// travels in the invitation (OptionsBody, the wire form of the options,
// whose option fields are made from the descriptions: VAR-D6, issue 33):
// each value its description gives (each choice, the bounds of a number,
// a switch on and off) comes back from the JSON of OptionsToBody as it
// was. An option dropped on the way to the other peer is named.
func TestEveryOptionOnTheWire(t *testing.T) {
	for _, d := range engine.Descriptors {
		for _, opt := range d.Options {
			var values []string
			switch opt.Type {
			case engine.OptionChoice:
				values = opt.Choices
			case engine.OptionInt:
				values = []string{strconv.Itoa(opt.Min), strconv.Itoa(opt.Max)}
			case engine.OptionBool:
				values = []string{"false", "true"}
			}
			for _, value := range values {
				o := engine.Options{Variant: d.Variant}
				if err := opt.Parse(&o, value); err != nil {
					t.Errorf("variant %s: option %s=%s: %v", d.Variant, opt.Key, value, err)
					continue
				}
				o, err := o.Normalize()
				if err != nil {
					t.Errorf("variant %s: option %s=%s: %v", d.Variant, opt.Key, value, err)
					continue
				}
				data, err := json.Marshal(protocol.OptionsToBody(o))
				if err != nil {
					t.Fatal(err)
				}
				var body protocol.OptionsBody
				if err := json.Unmarshal(data, &body); err != nil {
					t.Fatal(err)
				}
				got, err := body.Options()
				if err != nil {
					t.Errorf("variant %s: option %s=%s: the wire form %s reads back as %v", d.Variant, opt.Key, value, data, err)
					continue
				}
				if opt.Format(got) != value {
					t.Errorf("variant %s: option %s=%s arrives as %s=%s: OptionsBody lacks it (%s)", d.Variant, opt.Key, value, opt.Key, opt.Format(got), data)
				}
			}
		}
	}
}

// TestVARD7EveryVariantsInvitationWithEveryOption checks what a new
// option must not break on the wire (VAR-D7): every variant's default
// options, which hold nothing of another variant's option, go through
// the invitation's JSON and come back with the same wire form and Own, and no option's key is the
// name of a field OptionsBody writes by hand (its JSON field would be
// written twice). A key that clashes, or a variant whose invitation an
// option breaks, is named.
func TestVARD7EveryVariantsInvitationWithEveryOption(t *testing.T) {
	fields := map[string]bool{}
	body := reflect.TypeFor[protocol.OptionsBody]()
	for i := range body.NumField() {
		name, _, _ := strings.Cut(body.Field(i).Tag.Get("json"), ",")
		fields[name] = true
	}
	for _, d := range engine.Descriptors {
		for _, opt := range d.Options {
			if fields[opt.Key] {
				t.Errorf("variant %s: option %s has the name of OptionsBody's field %q", d.Variant, opt.Key, opt.Key)
			}
		}
		o, err := engine.Options{Variant: d.Variant}.Normalize()
		if err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(protocol.OptionsToBody(o))
		if err != nil {
			t.Errorf("variant %s: its default invitation is not written: %v", d.Variant, err)
			continue
		}
		var back protocol.OptionsBody
		if err := json.Unmarshal(data, &back); err != nil {
			t.Errorf("variant %s: its default invitation %s is not read: %v", d.Variant, data, err)
			continue
		}
		// Compared in wire form and Own: the field CardsSet of another
		// variant than hmg differs (read from the wire it is true, from
		// Normalize false), as it did before VAR-D7.
		if got, err := back.Options(); err != nil || protocol.OptionsToBody(got) != protocol.OptionsToBody(o) || got.Own != o.Own {
			t.Errorf("variant %s: its default invitation %s comes back as %+v (%v), want %+v", d.Variant, data, got, err, o)
		}
	}
}

// legacyOptionsBody is OptionsBody as it was with a field per option
// written by hand, before the options' fields were made from their
// descriptions (issue 33).
type legacyOptionsBody struct {
	Variant       string  `json:"variant"`
	Size          int     `json:"size"`
	Komi          float64 `json:"komi"`
	Rules         string  `json:"rules,omitempty"`
	Cards         int     `json:"cards,omitempty"`
	Suicide       string  `json:"suicide,omitempty"`
	Perpendicular bool    `json:"perpendicular,omitempty"`
	InviterColor  string  `json:"inviter_color,omitempty"`
	Handicap      int     `json:"handicap,omitempty"`
	Time          string  `json:"time,omitempty"`
	LagMS         int64   `json:"lag_ms,omitempty"`
	Lambda        int     `json:"lambda,omitempty"`
	Garbling      string  `json:"garbling,omitempty"`
	InputOT       string  `json:"input_ot,omitempty"`
}

// TestOptionsBodyBytesUnchanged checks that OptionsBody, its options'
// fields made from their descriptions, writes the bytes the hand-written
// fields wrote, reads them back to the same options, and reads as
// strictly: an unknown field, or an option of the wrong JSON type, is
// refused (one signed invitation has one meaning). VAR-D6.
func TestOptionsBodyBytesUnchanged(t *testing.T) {
	for _, c := range []legacyOptionsBody{
		{Variant: "go", Size: 9, Komi: 7.5},
		{Variant: "go", Size: 19, Komi: 0.5, InviterColor: "black", Handicap: 4, Time: "5m", LagMS: 1000},
		{Variant: "phantom", Size: 9, Komi: 7.5, Rules: "hamburg", Lambda: 4, Garbling: "three-halves", InputOT: "authenticated-mac64"},
		{Variant: "hmg", Size: 9, Komi: 7.5, Cards: 2},
		{Variant: "hmg", Size: 9, Komi: 7.5},
		{Variant: "gomoku", Size: 15},
		{Variant: "fgo", Size: 9, Suicide: "forbid"},
		{Variant: "bridge", Size: 9, Komi: -2, Perpendicular: true},
		{Variant: "hmg", Size: 9, Komi: 7.5, Rules: "common", Cards: 9, Suicide: "nz", Perpendicular: true},
	} {
		legacy, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var body protocol.OptionsBody
		if err := json.Unmarshal(legacy, &body); err != nil {
			t.Errorf("%s: %v", legacy, err)
			continue
		}
		again, err := json.Marshal(body)
		if err != nil || string(again) != string(legacy) {
			t.Errorf("OptionsBody writes %s (%v), the hand-written fields wrote %s", again, err, legacy)
		}
		got, gotErr := body.Options()
		if gotErr == nil {
			if back, err := json.Marshal(protocol.OptionsToBody(got)); err != nil || string(back) != string(legacy) {
				t.Errorf("%s: its options %+v write %s (%v)", legacy, got, back, err)
			}
		}
		if c.Variant == "hmg" && c.Rules != "" && gotErr == nil {
			t.Errorf("%s: another variant's options are accepted", legacy)
		}
	}
	for _, bad := range []string{
		`{"variant":"go","size":9,"komi":7.5,"colour":"red"}`,
		`{"variant":"hmg","size":9,"komi":7.5,"cards":"2"}`,
		`{"variant":"bridge","size":9,"komi":0,"perpendicular":1}`,
		`{"variant":"phantom","size":9,"komi":7.5,"rules":3}`,
	} {
		var body protocol.OptionsBody
		if err := json.Unmarshal([]byte(bad), &body); err == nil {
			t.Errorf("%s: read as %+v, want an error", bad, body)
		}
	}
}

// TestVARD8SeventhVariantsOptionOnTheWire: a seventh descriptor's option
// travels in the invitation with no file written for it, the wire form
// being made from the descriptions: the wire's completeness tests pass
// with it added (VAR-D8).
func TestVARD8SeventhVariantsOptionOnTheWire(t *testing.T) {
	varianttest.Add(t)
	TestEveryOptionOnTheWire(t)
	TestVARD7EveryVariantsInvitationWithEveryOption(t)
	o, err := engine.Options{Variant: varianttest.Variant, Own: varianttest.OptionKey + "=true"}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(protocol.OptionsToBody(o))
	if err != nil || !strings.Contains(string(data), `"`+varianttest.OptionKey+`":true`) {
		t.Errorf("the seventh variant's invitation: %s (%v), want its option %s", data, err, varianttest.OptionKey)
	}
}
