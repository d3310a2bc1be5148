package main

import (
	"testing"
)

func TestParseCommand(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"suite/b.ad":      "open x\nclick @e2~s3 \"Go\"\n",
		"suite/a.ad":      "context platform=ios\nenv A=1\nopen ${A} --relaunch\n",
		"suite/sub/c.ad":  "type \"\\q\"\n",
		"suite/notes.txt": "not a script",
		"one.ad":          "wait 500\n",
	})
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"single file json", []string{"parse", "--json", "one.ad"}, 0,
			"{\n  \"file\": \"one.ad\",\n  \"metadata\": {},\n  \"actions\": [\n    {\n      \"command\": \"wait\",\n      \"positionals\": [\n        \"500\"\n      ]\n    }\n  ],\n  \"actionLines\": [\n    1\n  ]\n}\n", ""},
		{"directory summary, sorted, recursive", []string{"parse", "suite"}, 2,
			"suite/a.ad: ok, 1 actions (platform ios, 1 env)\nsuite/b.ad: ok, 2 actions\nsuite/sub/c.ad:1:6: Invalid quoted value \"\\q\" in replay script line: type \"\\q\"\n", ""},
		{"missing file still prints the others", []string{"parse", "nope.ad", "one.ad"}, 2,
			"one.ad: ok, 1 actions\n", "adtest parse: nope.ad: no such file or directory\n"},
		{"a glob, as run, check and fmt expand it", []string{"parse", "suite/*.ad", "one.ad", "suite/a.ad"}, 0,
			"suite/a.ad: ok, 1 actions (platform ios, 1 env)\nsuite/b.ad: ok, 2 actions\none.ad: ok, 1 actions\n", ""},
		{"a glob without matches", []string{"parse", "suite/*.txt.ad"}, 2, "", "adtest parse: suite/*.txt.ad: no files match\n"},
		{"no paths", []string{"parse", "--json"}, 2, "", parseUsage},
		{"unknown flag", []string{"parse", "--yaml", "one.ad"}, 2, "", "adtest parse: unknown flag --yaml\n" + parseUsage},
	}
	for _, tt := range tests {
		code, out, errOut := runMain(t, dir, tt.args...)
		if code != tt.code || out != tt.stdout || errOut != tt.stderr {
			t.Errorf("%s: exit %d\nstdout:\n%s\nstderr:\n%s\nwant exit %d\nstdout:\n%s\nstderr:\n%s", tt.name, code, out, errOut, tt.code, tt.stdout, tt.stderr)
		}
	}
}

func TestParseCommandJSONArray(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{"d/a.ad": "open x\n", "d/b.ad": "env A=1\nopen x\nenv B=2\n"})
	code, out, _ := runMain(t, dir, "parse", "--json", "d")
	want := `[
  {
    "file": "d/a.ad",
    "metadata": {},
    "actions": [
      {
        "command": "open",
        "positionals": [
          "x"
        ]
      }
    ],
    "actionLines": [
      1
    ]
  },
  {
    "file": "d/b.ad",
    "metadata": {
      "env": {
        "A": "1"
      }
    },
    "parseError": {
      "code": "INVALID_ARGS",
      "message": "env directives must precede all actions (line 3)."
    }
  }
]
`
	if code != 2 || out != want {
		t.Errorf("exit %d, stdout:\n%s\nwant exit 2:\n%s", code, out, want)
	}
}

// TestParseCommandTargetsEvidence: a targets-v1 annotation shows in
// `parse --json` as agent-device 0.21.5 prints it: "targetEvidences" with
// source and destination, each a complete target-v1 object.
func TestParseCommandTargetsEvidence(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{"drag.ad": "# agent-device:targets-v1 " +
		`{"source":{"id":"s","role":"view","verification":"verified"},"destination":{"role":"cell","label":"Row  2","verification":"unverifiable"}}` +
		"\ngesture drag id=s \"label=\\\"Row 2\\\"\"\n"})
	code, out, errOut := runMain(t, dir, "parse", "--json", "drag.ad")
	want := `{
  "file": "drag.ad",
  "metadata": {},
  "actions": [
    {
      "command": "gesture",
      "positionals": [
        "drag",
        "id=s",
        "label=\"Row 2\""
      ],
      "targetEvidences": {
        "source": {
          "id": "s",
          "role": "view",
          "ancestry": [],
          "sibling": 0,
          "viewportOrder": 0,
          "verification": "verified"
        },
        "destination": {
          "role": "cell",
          "label": "Row 2",
          "ancestry": [],
          "sibling": 0,
          "viewportOrder": 0,
          "verification": "unverifiable"
        }
      }
    }
  ],
  "actionLines": [
    2
  ]
}
`
	if code != 0 || out != want || errOut != "" {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s\nwant exit 0:\n%s", code, out, errOut, want)
	}
}
