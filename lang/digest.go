package lang

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// PlanDigest is agent-device's replay plan digest (spec §4.4): the lowercase
// hex SHA-256 of the canonical JSON of {platform, target, steps}, keys sorted
// at every level and no whitespace. platform and target are the effective
// values ("" is null); each step is {command, positionals, flags, runtime,
// targetEvidence, targetEvidences, source: {path: null, line}} with the
// parsed, unsubstituted values, so -e and AD_VAR_ values never change it
// while any edit that moves a line or changes an annotation does. A resume
// (`replay --from N --plan-digest SHA`) is refused unless the digest still
// matches.
func PlanDigest(s *Script, platform, target string) string {
	steps := make([]any, len(s.Actions))
	for i, a := range s.Actions {
		step := map[string]any{
			"command":         a.Command,
			"positionals":     orEmpty(a.Positionals),
			"flags":           map[string]any{},
			"runtime":         nil,
			"targetEvidence":  nil,
			"targetEvidences": nil,
			"source":          map[string]any{"path": nil, "line": a.Line()},
		}
		if len(a.Flags) > 0 {
			step["flags"] = map[string]any(a.Flags)
		}
		if len(a.Runtime) > 0 {
			step["runtime"] = map[string]any(a.Runtime)
		}
		if a.TargetEvidence != nil {
			step["targetEvidence"] = a.TargetEvidence
		}
		if a.Targets != nil {
			step["targetEvidences"] = a.Targets
		}
		steps[i] = step
	}
	plan := map[string]any{"platform": nullable(platform), "target": nullable(target), "steps": steps}
	sum := sha256.Sum256(canonicalJSON(plan))
	return hex.EncodeToString(sum[:])
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// canonicalJSON renders v with sorted keys, no whitespace and no HTML
// escaping (JSON.stringify's output for the values a plan holds): structs go
// through a generic round trip, whose maps encoding/json sorts.
func canonicalJSON(v any) []byte {
	raw, err := marshalNoEscape(v)
	if err != nil {
		panic("lang: plan digest: " + err.Error()) // plan values are plain JSON
	}
	var generic any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&generic); err != nil {
		panic("lang: plan digest: " + err.Error())
	}
	out, err := marshalNoEscape(generic)
	if err != nil {
		panic("lang: plan digest: " + err.Error())
	}
	return out
}
