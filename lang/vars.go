package lang

import "errors"

// STUB (owned by the lang-values work): variables (spec §1.5).

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
func (s *Scope) Interpolate(text string, file string, line int) (string, error) {
	return "", errors.New("interpolation not implemented")
}
