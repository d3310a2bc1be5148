package lang

import (
	"bytes"
	"encoding/json"
	"errors"
)

// Compat JSON: the shape of agent-device's parse goldens
// (../shared/corpus/agent-device/expected/**.parse.json, the v0_20_3 value).
//
//	{"file", "metadata": {platform?, target?, timeoutMs?, retries?, env?},
//	 "actions": [{command, positionals, flags?, runtime?, refLabel?, targetEvidence?, targetEvidences?}],
//	 "actionLines": [...]}
//
// A header error replaces "metadata" with "metadataError" {code, message}
// (the actions are still reported, the body being parsed independently); a
// body error replaces "actions"/"actionLines" with "parseError"
// {code, message, hint?}.

// CompatError is the {code, message, hint?} object of a compat error.
type CompatError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
}

// CompatMetadata is the metadata object of the compat JSON.
type CompatMetadata struct {
	Platform  string            `json:"platform,omitempty"`
	Target    string            `json:"target,omitempty"`
	TimeoutMs *int              `json:"timeoutMs,omitempty"`
	Retries   *int              `json:"retries,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
}

// Compat is one file's compat JSON object.
type Compat struct {
	File          string          `json:"file"`
	Metadata      *CompatMetadata `json:"metadata,omitempty"`
	MetadataError *CompatError    `json:"metadataError,omitempty"`
	Actions       []*Action       `json:"actions,omitempty"`
	ActionLines   []int           `json:"actionLines,omitempty"`
	ParseError    *CompatError    `json:"parseError,omitempty"`
}

// CompatJSON builds the compat object of a file from ParseAll-style results:
// the script and its errors in agent-device order (header errors flagged
// Metadata=true). The first header error and the first body error are
// reported, as the reference parser stops at each.
func CompatJSON(file string, s *Script, errs []*Error) *Compat {
	c := &Compat{File: file}
	var mdErr, bodyErr *Error
	for _, e := range errs {
		if e.Metadata && mdErr == nil {
			mdErr = e
		}
		if !e.Metadata && bodyErr == nil {
			bodyErr = e
		}
	}
	if mdErr != nil {
		c.MetadataError = compatError(mdErr)
	} else {
		m := &CompatMetadata{Platform: s.Metadata.Platform, Target: s.Metadata.Target, TimeoutMs: s.Metadata.TimeoutMs, Retries: s.Metadata.Retries}
		if len(s.Env) > 0 {
			m.Env = make(map[string]string, len(s.Env))
			for _, e := range s.Env {
				m.Env[e.Key] = e.Value
			}
		}
		c.Metadata = m
	}
	if bodyErr != nil {
		c.ParseError = compatError(bodyErr)
		return c
	}
	c.Actions = make([]*Action, len(s.Actions))
	c.ActionLines = make([]int, len(s.Actions))
	for i, a := range s.Actions {
		c.Actions[i] = a
		c.ActionLines[i] = a.Pos.Line
	}
	return c
}

// CompatOf parses src and returns its compat object.
func CompatOf(file string, src []byte) *Compat {
	s, errs := parseWith(file, src, parseConfig{})
	return CompatJSON(file, s, errs)
}

// OK reports whether the file parsed without any error.
func (c *Compat) OK() bool { return c.MetadataError == nil && c.ParseError == nil }

func compatError(e *Error) *CompatError {
	code := e.Code
	if code == "" {
		code = codeInvalidArgs
	}
	return &CompatError{Code: code, Message: e.Message, Hint: e.Hint}
}

// MarshalJSON keeps "actions" and "actionLines" as [] (not absent) when a
// script that parsed has no actions.
func (c *Compat) MarshalJSON() ([]byte, error) {
	type plain Compat
	if c.ParseError == nil {
		acts := make([]compatAction, len(c.Actions))
		for i, a := range c.Actions {
			acts[i] = compatAction{Action: a, TargetEvidences: a.Targets}
		}
		lines := c.ActionLines
		if lines == nil {
			lines = []int{}
		}
		return marshalNoEscape(&plainWithEmpty{File: c.File, Metadata: c.Metadata, MetadataError: c.MetadataError, Actions: acts, ActionLines: lines})
	}
	return marshalNoEscape((*plain)(c))
}

// plainWithEmpty renders empty actions lists explicitly.
type plainWithEmpty struct {
	File          string          `json:"file"`
	Metadata      *CompatMetadata `json:"metadata,omitempty"`
	MetadataError *CompatError    `json:"metadataError,omitempty"`
	Actions       []compatAction  `json:"actions"`
	ActionLines   []int           `json:"actionLines"`
	ParseError    *CompatError    `json:"parseError,omitempty"`
}

// compatAction is an action as the compat JSON shows it: with the targets-v1
// evidence of a two-endpoint action as "targetEvidences" {source,
// destination}, the key agent-device 0.21.5 uses.
type compatAction struct {
	*Action
	TargetEvidences *TargetsEvidence `json:"targetEvidences,omitempty"`
}

func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// AsError returns e as *Error when it is one.
func AsError(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}
