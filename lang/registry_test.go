package lang

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Spec §6: ref-frame effect by command (v0.20 registry) plus the commands
// adtest classifies itself (hover, fold, install-from-source).
var specEffects = map[Effect][]string{
	EffectMayInvalidate: {"open", "close", "boot", "shutdown", "click", "press", "fill", "type", "longpress", "focus", "gesture", "swipe", "scroll", "back", "home", "app-switcher", "orientation", "tv-remote", "viewport", "settings", "push", "trigger-app-event", "install", "reinstall", "react-native", "hover", "fold", "install-from-source"},
	EffectConditional:   {"keyboard", "alert", "find"},
	EffectPreserve:      {"snapshot", "diff", "wait", "get", "is", "screenshot", "record", "trace", "appstate", "clipboard", "perf", "logs", "network", "audio", "events", "devices", "apps", "capabilities", "doctor", "prepare", "artifacts", "runtime"},
	EffectDelegated:     {"replay", "test", "batch"},
}

func TestRegistryMatchesSpecEffects(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for eff, names := range specEffects {
		for _, n := range names {
			c, ok := LookupCommand(n)
			if !ok {
				t.Errorf("%s: missing from the command table", n)
				continue
			}
			if c.Effect != eff {
				t.Errorf("%s: effect %s, spec says %s", n, c.Effect, eff)
			}
			seen[n] = true
		}
	}
	for _, c := range Commands {
		if !seen[c.Name] {
			t.Errorf("%s: in the table but not in the spec effect list of this test", c.Name)
		}
	}
}

func TestRegistryRows(t *testing.T) {
	t.Parallel()
	if !sort.SliceIsSorted(Commands, func(i, j int) bool { return Commands[i].Name < Commands[j].Name }) {
		t.Error("Commands is not sorted")
	}
	for _, c := range Commands {
		if c.Usage == "" || c.Summary == "" {
			t.Errorf("%s: usage or summary missing", c.Name)
		}
		switch c.Recorded {
		case RecordedYes, RecordedNo, RecordedObservation:
		default:
			t.Errorf("%s: recorded %q", c.Name, c.Recorded)
		}
		if c.MaxArgs != -1 && c.MaxArgs < c.MinArgs {
			t.Errorf("%s: arity %d..%d", c.Name, c.MinArgs, c.MaxArgs)
		}
		for _, p := range c.Platforms {
			if !contains(AllPlatforms, p) {
				t.Errorf("%s: unknown platform %q", c.Name, p)
			}
		}
		keys := map[string]bool{}
		for _, f := range c.Flags {
			for _, n := range f.Names {
				if !strings.HasPrefix(n, "-") {
					t.Errorf("%s: flag name %q", c.Name, n)
				}
			}
			if f.Key != "" && keys[f.Key] && f.Kind != FlagBoolFalse { // --no-x shares the key of --x
				t.Errorf("%s: duplicate flag key %s", c.Name, f.Key)
			}
			keys[f.Key] = true
			if f.Kind == FlagEnum && len(f.Enum) == 0 {
				t.Errorf("%s %s: enum without values", c.Name, f.Names[0])
			}
			if f.Kind == FlagRetired && f.Message == "" {
				t.Errorf("%s %s: retired flag without a message", c.Name, f.Names[0])
			}
		}
	}
}

// TestEveryScriptCommandIsClassified fails when a command word a script can
// reach (every command of the corpus goldens) has no row in the table.
func TestEveryScriptCommandIsClassified(t *testing.T) {
	t.Parallel()
	root := corpusDir(t)
	words := map[string]bool{}
	collect := func(raw json.RawMessage) {
		var v struct {
			Actions []struct {
				Command string `json:"command"`
			} `json:"actions"`
		}
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		for _, a := range v.Actions {
			words[a.Command] = true
		}
	}
	err := filepath.WalkDir(filepath.Join(root, "expected"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".parse.json") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var g struct {
			V020 json.RawMessage `json:"v0_20_3"`
		}
		if err := json.Unmarshal(b, &g); err != nil {
			return err
		}
		collect(g.V020)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range loadParseCases(t) {
		collect(c.Expect)
	}
	// Deliberately unknown words of the parse cases (they parse, then fail at dispatch).
	unknown := map[string]string{
		"frobnicate": "cmd.unknown-command-parses",
		"CONTEXT":    "ctx.uppercase-word-is-action",
		// The test-artifact replay.ad that holds Maestro YAML (corpus README oddity).
		"appId:": "maestro yaml", "---": "maestro yaml", "-": "maestro yaml",
	}
	if len(words) < 20 {
		t.Fatalf("only %d command words found", len(words))
	}
	for w := range words {
		if _, ok := unknown[w]; ok {
			continue
		}
		c, ok := LookupCommand(w)
		if !ok {
			t.Errorf("command %q appears in the corpus but has no row in the command table", w)
			continue
		}
		if c.Effect < EffectPreserve || c.Effect > EffectDelegated {
			t.Errorf("%s: effect unclassified", w)
		}
	}
}

func TestEffectOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line  string
		want  Effect
		known bool
	}{
		{"keyboard", EffectPreserve, true},
		{"keyboard status", EffectPreserve, true},
		{"keyboard get", EffectPreserve, true},
		{"keyboard dismiss", EffectMayInvalidate, true},
		{"keyboard enter", EffectMayInvalidate, true},
		{"keyboard return", EffectMayInvalidate, true},
		{"alert", EffectPreserve, true},
		{"alert get", EffectPreserve, true},
		{"alert wait 500", EffectPreserve, true},
		{"alert accept", EffectMayInvalidate, true},
		{"alert dismiss", EffectMayInvalidate, true},
		{`find text "Search" exists`, EffectPreserve, true},
		{`find "Search"`, EffectMayInvalidate, true},
		{`find label Email fill ada`, EffectMayInvalidate, true},
		{`find text Title get text`, EffectPreserve, true},
		{`find Title wait 500`, EffectPreserve, true},
		{`find role button click`, EffectMayInvalidate, true},
		{`find id field type hello`, EffectMayInvalidate, true},
		{`find id field focus`, EffectMayInvalidate, true},
		{"snapshot -i", EffectPreserve, true},
		{"click @e1", EffectMayInvalidate, true},
		{"replay other.ad", EffectDelegated, true},
		{"frobnicate", EffectMayInvalidate, false},
	}
	for _, tt := range tests {
		s, err := Parse("e.ad", []byte(tt.line))
		if err != nil {
			t.Fatal(err)
		}
		got, known := EffectOf(s.Actions[0])
		if got != tt.want || known != tt.known {
			t.Errorf("EffectOf(%s) = %s, %v; want %s, %v", tt.line, got, known, tt.want, tt.known)
		}
	}
}

func TestSupportsPlatform(t *testing.T) {
	t.Parallel()
	for _, c := range []string{"snapshot", "click", "press", "fill", "type", "focus", "hover", "get", "is", "find", "wait", "scroll", "swipe", "gesture", "back", "keyboard", "alert", "screenshot", "viewport", "open", "close", "appstate"} {
		if !SupportsPlatform(c, "web") {
			t.Errorf("%s should support web", c)
		}
	}
	tests := []struct {
		cmd, platform string
		want          bool
	}{
		{"home", "web", false},
		{"hover", "ios", false},
		{"viewport", "android", false},
		{"orientation", "android", true},
		{"orientation", "macos", false},
		{"record", "apple", true},
		{"home", "apple", true},
		{"viewport", "apple", false},
		{"frobnicate", "ios", false},
		{"wait", "vega", true},
	}
	for _, tt := range tests {
		if got := SupportsPlatform(tt.cmd, tt.platform); got != tt.want {
			t.Errorf("SupportsPlatform(%s, %s) = %v, want %v", tt.cmd, tt.platform, got, tt.want)
		}
	}
}
