package protocol_test

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
)

// TestEveryOptionOnTheWire checks that every option of every descriptor
// travels in the invitation (OptionsBody, the wire form of the options):
// each value its description gives (each choice, the bounds of a number,
// a switch on and off) comes back from the JSON of OptionsToBody as it
// was. The wire form still has a field per option, written by hand: a
// new variant's option missing from it is named here rather than dropped
// on the way to the other peer (issue 33).
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
