package lang

import (
	"math"

	"github.com/alecthomas/participle/v2/lexer"
)

// Pos is a position in a script: file, 1-based line and column (column counts
// UTF-8 bytes from 1 after the leading whitespace of the line was skipped).
type Pos = lexer.Position

// Script is one parsed .ad file. Parse never drops a line: Lines keeps every
// physical line (blank, comment, annotation, env, context, action) in order so
// the printer can reproduce comments and grouping.
type Script struct {
	File     string
	Metadata Metadata
	// Env holds the script's `env KEY=VALUE` directives in file order.
	Env []EnvDirective
	// Actions are the executable lines (the plan), in order. Step N is Actions[N-1].
	Actions []*Action
	// Lines is every physical line of the file, classified.
	Lines []*Line
}

// LineKind classifies a physical line (spec §1.2).
type LineKind int

const (
	LineBlank LineKind = iota
	LineComment
	LineAnnotation // # agent-device:target-v1 {...} (or targets-v1)
	LineEnv
	LineContext
	LineAction
)

// Line is one physical line of a script.
type Line struct {
	Pos  Pos
	Kind LineKind
	Text string // the trimmed text of the line
	// Action is set for LineAction lines.
	Action *Action
	// Tokens holds the tokens of context and action lines.
	Tokens []*Token
	// Err is the first error of this line (set by ParseAll and Parse), if any.
	Err *Error
}

// Token is one lexical token of a line.
type Token struct {
	Pos    Pos
	Raw    string // the text as written, quotes included
	Value  string // the decoded value (JSON-decoded for double quotes)
	Quoted byte   // 0 for a bare token, '"' or '\''
}

// Metadata is what the context header declares (spec §1.4.1). Empty strings and
// nil pointers mean "not declared".
type Metadata struct {
	Platform  string `json:"platform,omitempty"`
	Target    string `json:"target,omitempty"`
	TimeoutMs *int   `json:"timeoutMs,omitempty"`
	Retries   *int   `json:"retries,omitempty"`
	// Other keeps every other key=value of the context lines, raw, in order.
	Other []KeyValue `json:"-"`
	// Pos of the first context line, for diagnostics.
	Pos Pos `json:"-"`
}

// KeyValue is one raw key=value pair.
type KeyValue struct {
	Pos   Pos
	Key   string
	Value string
}

// EnvDirective is `env KEY=VALUE`.
type EnvDirective struct {
	Pos   Pos
	Key   string
	Value string
}

// Action is one executable script line: the command word, positionals left
// after the per-command flag rules, flags, runtime hints, an optional ref label
// and target-v1 evidence. Values are unsubstituted: ${VAR} is resolved by the
// runner just before the step runs (see Interpolate).
type Action struct {
	Pos            Pos             `json:"-"`
	Command        string          `json:"command"`
	Positionals    []string        `json:"positionals"`
	Flags          Flags           `json:"flags,omitempty"`
	Runtime        Flags           `json:"runtime,omitempty"`
	RefLabel       *string         `json:"refLabel,omitempty"`
	TargetEvidence *TargetEvidence `json:"targetEvidence,omitempty"`
	// Targets is the two-endpoint targets-v1 evidence (newest grammar).
	Targets *TargetsEvidence `json:"-"`
	// Tokens are the line's argument tokens (after the command word) as written.
	Tokens []*Token `json:"-"`
	// ArgPos maps each entry of Positionals to the position of the token it came
	// from (same length as Positionals; joined positionals take the first token).
	ArgPos []Pos `json:"-"`
}

// Line returns the 1-based physical line of the action.
func (a *Action) Line() int { return a.Pos.Line }

// Flags are decoded flags keyed by agent-device's camelCase names (count,
// intervalMs, snapshotInteractiveOnly, screenshotFullscreen, relaunch, ...).
// Values are bool, int, float64 or string, as in the corpus goldens.
type Flags map[string]any

// Bool reports a boolean flag.
func (f Flags) Bool(name string) bool {
	v, _ := f[name].(bool)
	return v
}

// Int returns an integer flag and whether it is set. A number beyond int's
// range (the parser keeps 1e30 as agent-device's JavaScript does) saturates
// rather than wrapping to a negative count.
func (f Flags) Int(name string) (int, bool) {
	switch v := f[name].(type) {
	case int:
		return v, true
	case float64:
		switch {
		case v >= math.MaxInt:
			return math.MaxInt, true
		case v <= math.MinInt:
			return math.MinInt, true
		}
		return int(v), true
	}
	return 0, false
}

// String returns a string flag and whether it is set.
func (f Flags) String(name string) (string, bool) {
	v, ok := f[name].(string)
	return v, ok
}

// TargetEvidence is a target-v1 annotation payload (spec §1.7).
type TargetEvidence struct {
	ID            string          `json:"id,omitempty"`
	Role          string          `json:"role"`
	Label         string          `json:"label,omitempty"`
	Ancestry      []AncestorEntry `json:"ancestry"`
	Sibling       int             `json:"sibling"`
	ViewportOrder int             `json:"viewportOrder"`
	ScrollRegion  *ScrollRegion   `json:"scrollRegion,omitempty"`
	Rect          *EvidenceRect   `json:"rect,omitempty"`
	Verification  string          `json:"verification"`
}

// AncestorEntry is one entry of target-v1 ancestry, nearest ancestor first.
type AncestorEntry struct {
	Role  string `json:"role"`
	Label string `json:"label,omitempty"`
}

// ScrollRegion names the scroll container of a target-v1 target.
type ScrollRegion struct {
	Role  string `json:"role"`
	ID    string `json:"id,omitempty"`
	Label string `json:"label,omitempty"`
}

// EvidenceRect is the diagnostic rect of a target-v1 payload.
type EvidenceRect struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// TargetsEvidence is a targets-v1 annotation (two endpoints, newest grammar).
type TargetsEvidence struct {
	Source      TargetEvidence `json:"source"`
	Destination TargetEvidence `json:"destination"`
}

// Error is a parse, metadata or argument error. Code is agent-device's code
// (INVALID_ARGS); Message is agent-device's exact text where one exists.
type Error struct {
	Pos     Pos
	Code    string
	Message string
	Hint    string
	// Metadata is true for header (context/env) errors: compat JSON reports
	// them as metadataError rather than parseError.
	Metadata bool
	// A Bind error says which part of the arguments failed, the positionals
	// of that part and their positions (check reports it under its rule).
	part   bindPart
	args   []string
	argPos []Pos
}

func (e *Error) Error() string {
	if e.Pos.Filename != "" || e.Pos.Line > 0 {
		return e.Pos.String() + ": " + e.Message
	}
	return e.Message
}

// Selector types (spec §3.1). A chain is tried segment by segment; all terms of
// a segment must match.
type SelectorChain struct {
	Raw      string
	Segments []SelectorSegment
}

// SelectorSegment is one ||-separated alternative: terms ANDed together.
type SelectorSegment struct {
	Raw   string
	Terms []SelectorTerm
}

// SelectorTerm is key=value, or a boolean key (Value "true"/"false", IsBool).
type SelectorTerm struct {
	Key    string // lower-cased key: id role text label value appname windowtitle visible hidden editable selected focused enabled hittable
	Value  string // decoded value
	IsBool bool
	Bool   bool
}
