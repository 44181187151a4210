package engine

import "testing"

func TestResultStringParseRoundTrip(t *testing.T) {
	tests := []struct {
		name   string
		result Result
		text   string
	}{
		{"black by points", Result{Winner: Black, Margin: 3.5, By: ByScore}, "B+3.5"},
		{"white by half a point", Result{Winner: White, Margin: 0.5, By: ByScore}, "W+0.5"},
		{"whole margin", Result{Winner: White, Margin: 12, By: ByScore}, "W+12"},
		{"large margin", Result{Winner: Black, Margin: 361, By: ByScore}, "B+361"},
		{"black by resignation", Result{Winner: Black, By: ByResignation}, "B+R"},
		{"white by resignation", Result{Winner: White, By: ByResignation}, "W+R"},
		{"black by forfeit", Result{Winner: Black, By: ByForfeit}, "B+F"},
		{"white by forfeit", Result{Winner: White, By: ByForfeit}, "W+F"},
		{"white on time", Result{Winner: White, By: ByTime}, "W+T"},
		{"win without a count", Result{Winner: Black, By: ByWin}, "B+"},
		{"white win without a count", Result{Winner: White, By: ByWin}, "W+"},
		{"draw", Result{By: ByDraw}, "0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.result.String(); got != tt.text {
				t.Errorf("String() = %q, want %q", got, tt.text)
			}
			got, err := ParseResult(tt.text)
			if err != nil || got != tt.result {
				t.Errorf("ParseResult(%q) = %+v, %v; want %+v", tt.text, got, err, tt.result)
			}
		})
	}
}

func TestParseResultAliases(t *testing.T) {
	tests := []struct {
		in   string
		want Result
		back string
	}{
		{"B+Resign", Result{Winner: Black, By: ByResignation}, "B+R"},
		{"W+Resign", Result{Winner: White, By: ByResignation}, "W+R"},
		{"W+Forfeit", Result{Winner: White, By: ByForfeit}, "W+F"},
		{"Draw", Result{By: ByDraw}, "0"},
		{"D", Result{By: ByDraw}, "0"},
		{"B+7.0", Result{Winner: Black, Margin: 7, By: ByScore}, "B+7"},
		// T-14: a game ended by an unproven report has no result.
		{"Void", Result{By: ByDispute}, "Void"},
	}
	for _, tt := range tests {
		got, err := ParseResult(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseResult(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
			continue
		}
		if got.String() != tt.back {
			t.Errorf("ParseResult(%q).String() = %q, want %q", tt.in, got.String(), tt.back)
		}
	}
}

func TestParseResultErrors(t *testing.T) {
	for _, in := range []string{"", "B", "W", "X+3", "b+3", "B-3", "B+abc", "B+3.5.1", "B+r", "?", "+3"} {
		if got, err := ParseResult(in); err == nil {
			t.Errorf("ParseResult(%q) = %+v, want an error", in, got)
		}
	}
}

// TestScoreResult: the higher score wins by the difference; equal scores
// are a draw by count, written "0".
func TestScoreResult(t *testing.T) {
	tests := []struct {
		black, white float64
		want         Result
		text         string
	}{
		{40, 33.5, Result{Winner: Black, Margin: 6.5, By: ByScore}, "B+6.5"},
		{30, 51.5, Result{Winner: White, Margin: 21.5, By: ByScore}, "W+21.5"},
		{40, 40, Result{By: ByScore}, "0"},
	}
	for _, tt := range tests {
		got := Score{Black: tt.black, White: tt.white}.Result()
		if got != tt.want || got.String() != tt.text {
			t.Errorf("Score{%v, %v}.Result() = %+v %q, want %+v %q", tt.black, tt.white, got, got.String(), tt.want, tt.text)
		}
	}
}
