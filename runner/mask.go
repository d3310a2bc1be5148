package runner

import (
	"encoding/json"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
)

// stepMasker is the masker of a replay's or a step's texts: the scope's
// variable values become <var:NAME>, secrets ***.
func stepMasker(scope *lang.Scope, secrets []string) *drivers.Masker {
	if scope == nil {
		return drivers.NewMasker(secrets)
	}
	return drivers.NewMasker(secrets, scope.CLI, scope.Process, scope.Script)
}

// Mask masks every text of an attempt result in place: the one pass the
// suite makes before any reporter, artifact or listener sees the result.
func (a *AttemptResult) Mask(m *drivers.Masker) {
	if m == nil {
		return
	}
	for i := range a.Warnings {
		a.Warnings[i] = m.String(a.Warnings[i])
	}
	for i := range a.Steps {
		a.Steps[i].Warning = m.String(a.Steps[i].Warning)
		a.Steps[i].Action = m.String(a.Steps[i].Action)
	}
	a.Error.Mask(m)
	a.Repair.mask(m)
	a.Annotation.mask(m)
}

// Mask masks the message, the hint and every text of the details of e in
// place (the details' values are replaced, never edited: they may be
// shared).
func (e *ErrorInfo) Mask(m *drivers.Masker) {
	if e == nil || m == nil {
		return
	}
	e.Message = m.String(e.Message)
	e.Hint = m.String(e.Hint)
	if e.Details != nil {
		e.Details = maskValue(m, e.Details).(map[string]any)
	}
}

// maskValue returns v with every text masked, as a new value when one is
// masked. Details hold what their builders put there: texts, numbers,
// flags, lists and maps of them, a divergence or a target binding; any
// other value is replaced by its masked JSON form, the only form a report
// shows.
func maskValue(m *drivers.Masker, v any) any {
	switch x := v.(type) {
	case nil, bool, int, int64, float64, drivers.Reason:
		return v
	case string:
		return m.String(x)
	case []string:
		out := make([]string, len(x))
		for i, s := range x {
			out[i] = m.String(s)
		}
		return out
	case map[string]any:
		if x == nil {
			return x
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = maskValue(m, e)
		}
		return out
	case []map[string]any:
		out := make([]map[string]any, len(x))
		for i, e := range x {
			out[i] = maskValue(m, e).(map[string]any)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = maskValue(m, e)
		}
		return out
	case *Divergence:
		return x.mask(m)
	case *TargetBinding:
		return x.mask(m)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	return json.RawMessage(m.Bytes(b))
}
