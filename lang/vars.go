package lang

import (
	"regexp"
	"strconv"
	"strings"
)

// Variables (spec §1.5).

// Scope resolves ${VAR}: layers in precedence order -e > AD_VAR_* > env > built-ins.
type Scope struct {
	CLI      map[string]string // -e KEY=VALUE
	Process  map[string]string // from AD_VAR_* (already stripped of the prefix)
	Script   map[string]string // env directives
	BuiltIns map[string]string // AD_* built-ins
}

// Lookup returns a variable's value by precedence.
func (s *Scope) Lookup(name string) (string, bool) {
	for _, m := range []map[string]string{s.CLI, s.Process, s.Script, s.BuiltIns} {
		if v, ok := m[name]; ok {
			return v, true
		}
	}
	return "", false
}

// Interpolate resolves ${VAR}, ${VAR:-fallback} and the \${ escape in s.
// An unresolved variable is an *Error "Unresolved variable ${NAME} at <file>:<line>."
// The scan is a single left-to-right pass: inserted values are never re-scanned.
func (s *Scope) Interpolate(text string, file string, line int) (string, error) {
	if !strings.Contains(text, "${") {
		return text, nil
	}
	var b strings.Builder
	last := 0
	for _, r := range scanVars(text) {
		b.WriteString(text[last:r.Start])
		last = r.End
		if r.Escape {
			b.WriteString("${")
			continue
		}
		if v, ok := s.Lookup(r.Name); ok {
			b.WriteString(v)
			continue
		}
		if r.HasFallback {
			b.WriteString(r.Fallback)
			continue
		}
		return "", &Error{Code: selCodeInvalidArgs,
			Message: "Unresolved variable ${" + r.Name + "} at " + file + ":" + strconv.Itoa(line) + "."}
	}
	b.WriteString(text[last:])
	return b.String(), nil
}

// VarRef is one ${...} occurrence in a text.
type VarRef struct {
	Name        string
	HasFallback bool
	Fallback    string // decoded fallback (each \x became x)
	Start, End  int    // byte offsets of the whole ${...} in the text
	Escape      bool   // a \${ escape (Name empty); only scanVars reports these
}

// VarRefs lists the variable references of text in order (escapes excluded).
func VarRefs(text string) []VarRef {
	var out []VarRef
	for _, r := range scanVars(text) {
		if !r.Escape {
			out = append(out, r)
		}
	}
	return out
}

// scanVars finds escapes and references left to right, as the pattern
// \\\$\{ | \$\{NAME(:-FALLBACK)?\} applied globally would.
func scanVars(text string) []VarRef {
	var out []VarRef
	for i := 0; i < len(text); {
		if strings.HasPrefix(text[i:], `\${`) {
			out = append(out, VarRef{Start: i, End: i + 3, Escape: true})
			i += 3
			continue
		}
		if strings.HasPrefix(text[i:], "${") {
			if r, ok := matchVar(text, i); ok {
				out = append(out, r)
				i = r.End
				continue
			}
		}
		i++
	}
	return out
}

func matchVar(text string, start int) (VarRef, bool) {
	i := start + 2
	n := i
	for n < len(text) && isVarNameByte(text[n], n == i) {
		n++
	}
	if n == i {
		return VarRef{}, false
	}
	r := VarRef{Name: text[i:n], Start: start}
	if n < len(text) && text[n] == '}' {
		r.End = n + 1
		return r, true
	}
	if !strings.HasPrefix(text[n:], ":-") {
		return VarRef{}, false
	}
	var fb strings.Builder
	for j := n + 2; j < len(text); j++ {
		switch c := text[j]; c {
		case '}':
			r.HasFallback, r.Fallback, r.End = true, fb.String(), j+1
			return r, true
		case '\\':
			// \x yields x; JavaScript's "." does not match line terminators.
			if j+1 >= len(text) || text[j+1] == '\n' || text[j+1] == '\r' {
				return VarRef{}, false
			}
			fb.WriteByte(text[j+1])
			j++
		default:
			fb.WriteByte(c)
		}
	}
	return VarRef{}, false
}

func isVarNameByte(c byte, first bool) bool {
	switch {
	case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c == '_':
		return true
	case first:
		return false
	case c >= '0' && c <= '9', c == '.':
		return true
	}
	return false
}

// varKeyPattern is the rule for user-settable keys (env, -e, AD_VAR_*).
var varKeyPattern = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*$`)

// IsValidVarKey reports whether key may be set by env, -e or AD_VAR_*.
func IsValidVarKey(key string) bool { return varKeyPattern.MatchString(key) }

// IsReservedVarKey reports whether key is in the AD_* built-in namespace.
func IsReservedVarKey(key string) bool { return strings.HasPrefix(key, "AD_") }

// ParseCLIVars parses -e KEY=VALUE entries (split at the first '=').
func ParseCLIVars(entries []string) (map[string]string, error) {
	out := map[string]string{}
	for _, e := range entries {
		eq := strings.IndexByte(e, '=')
		if eq <= 0 {
			return nil, &Error{Code: selCodeInvalidArgs, Message: `Invalid -e entry "` + e + `": expected KEY=VALUE.`}
		}
		key := e[:eq]
		if !IsValidVarKey(key) {
			return nil, &Error{Code: selCodeInvalidArgs,
				Message: `Invalid -e key "` + key + `": keys must be uppercase letters, digits, and underscores (e.g. APP_ID).`}
		}
		if IsReservedVarKey(key) {
			return nil, &Error{Code: selCodeInvalidArgs,
				Message: "The AD_* namespace is reserved for built-in variables. Rename " + key + " to avoid the AD_ prefix."}
		}
		out[key] = e[eq+1:]
	}
	return out, nil
}

// ProcessVarPrefix is the environment prefix that supplies script variables.
const ProcessVarPrefix = "AD_VAR_"

// ProcessVars collects AD_VAR_<KEY>=value from an environment list
// (KEY=VALUE strings); invalid or reserved keys are skipped silently.
func ProcessVars(environ []string) map[string]string {
	out := map[string]string{}
	for _, kv := range environ {
		eq := strings.IndexByte(kv, '=')
		if eq < 0 || !strings.HasPrefix(kv[:eq], ProcessVarPrefix) {
			continue
		}
		key := kv[len(ProcessVarPrefix):eq]
		if key == "" || !IsValidVarKey(key) || IsReservedVarKey(key) {
			continue
		}
		out[key] = kv[eq+1:]
	}
	return out
}

// BuiltInNames are the AD_* variables the runner supplies. AD_BASE_URL is
// adtest's own: the URL of the app served by `adtest run --serve`.
var BuiltInNames = []string{
	"AD_PLATFORM", "AD_SESSION", "AD_FILENAME", "AD_DEVICE", "AD_DEVICE_ID", "AD_TARGET",
	"AD_ARTIFACTS", "AD_SHARD_INDEX", "AD_SHARD_COUNT", "AD_BASE_URL",
}

// IsBuiltInName reports whether name is one of BuiltInNames.
func IsBuiltInName(name string) bool { return selContains(BuiltInNames, name) }

// IsSecretName reports whether a variable's value must be masked: its name
// contains SECRET, TOKEN, PASSWORD or KEY (any case).
func IsSecretName(name string) bool {
	u := strings.ToUpper(name)
	for _, w := range []string{"SECRET", "TOKEN", "PASSWORD", "KEY"} {
		if strings.Contains(u, w) {
			return true
		}
	}
	return false
}
