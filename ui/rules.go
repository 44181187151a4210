package ui

import (
	"regexp"
	"strings"

	"github.com/kakure/kakure/docs"
	"github.com/kakure/kakure/engine"
)

// markdownMarks are the marks of the rules' Markdown that a terminal shows
// as noise: bold and code spans.
var markdownMarks = strings.NewReplacer("**", "", "`", "")

// rulesSection returns the text of the section of rules.md whose heading
// starts with "## ID —", without its heading's Markdown.
func rulesSection(id string) string {
	re := regexp.MustCompile(`(?m)^## ` + regexp.QuoteMeta(id) + ` — `)
	loc := re.FindStringIndex(docs.RulesMarkdown)
	if loc == nil {
		return ""
	}
	rest := docs.RulesMarkdown[loc[0]+3:]
	if end := strings.Index(rest, "\n## "); end >= 0 {
		rest = rest[:end]
	}
	return markdownMarks.Replace(strings.TrimSpace(rest))
}

// RulesText returns the rules of the game with options o, in the words of
// docs/spec/rules.md: the game's options first, then the variant's rules
// and the base they build on. In Phantom Go the announcement rule set in
// force is marked.
func RulesText(o engine.Options) string {
	var sb strings.Builder
	sb.WriteString("This game: " + DescribeOptions(o) + "\n")
	sb.WriteString("Points are written as in GTP: column letters A–T without I, rows from 1 at the bottom.\n")
	d, err := engine.LookupDescriptor(o.Variant)
	if err != nil {
		sb.WriteString("\n" + err.Error() + "\n")
		return sb.String()
	}
	for _, id := range d.RuleSections {
		text := rulesSection(id)
		if id == "PG" && o.Rules != "" {
			text = markRuleSet(text, string(o.Rules))
		}
		sb.WriteString("\n" + text + "\n")
	}
	return sb.String()
}

// markRuleSet marks the bullet of Phantom Go's announcement rule set in
// force ("Announcement rule set "hamburg"").
func markRuleSet(text, rules string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "- PG-") && strings.Contains(l, `rule set "`+rules+`"`) {
			lines[i] = "▶ in force in this game:\n" + l
		}
	}
	return strings.Join(lines, "\n")
}
