package scriptpath

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestExpand(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, f := range []string{
		"suite/b.ad", "suite/a.ad", "suite/sub/c.ad", "suite/.hidden.ad", "suite/notes.txt",
		"suite/.adtest/copy/script.ad", "suite/node_modules/x/y.ad",
		"suite/out/" + OutputMarker, "suite/out/run/script.ad",
		"suite/artifacts/z.ad", "empty/readme.txt", "top.ad",
	} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	abs := func(f string) string { return filepath.Join(root, f) }
	tests := []struct {
		name       string
		args       []string
		skipHidden bool
		skip       []string
		files      []File
		problems   []Problem
	}{
		{
			name: "a directory is walked, sorted, past dot directories, node_modules and output directories",
			args: []string{"suite"},
			files: []File{
				{"suite/.hidden.ad", abs("suite/.hidden.ad")}, {"suite/a.ad", abs("suite/a.ad")},
				{"suite/artifacts/z.ad", abs("suite/artifacts/z.ad")}, {"suite/b.ad", abs("suite/b.ad")},
				{"suite/sub/c.ad", abs("suite/sub/c.ad")},
			},
		},
		{
			name:       "skipHidden passes over dot files and skip over the run's own directories",
			args:       []string{"suite"},
			skipHidden: true,
			skip:       []string{"suite/artifacts"},
			files: []File{
				{"suite/a.ad", abs("suite/a.ad")}, {"suite/b.ad", abs("suite/b.ad")},
				{"suite/sub/c.ad", abs("suite/sub/c.ad")},
			},
		},
		{
			name:  "a file as given, named twice listed once; a glob relative to cwd",
			args:  []string{"top.ad", "suite/s*", "top.ad"},
			files: []File{{"top.ad", abs("top.ad")}, {"suite/sub/c.ad", abs("suite/sub/c.ad")}},
		},
		{
			name: "what names no script",
			args: []string{"missing.ad", "nothing*.ad", "empty", "[x"},
			problems: []Problem{
				{Arg: "missing.ad", Msg: "no such file or directory", Kind: ProblemMissing},
				{Arg: "nothing*.ad", Msg: "no files match", Kind: ProblemNoMatch},
				{Arg: "empty", Msg: "no .ad scripts in this directory", Kind: ProblemEmpty},
				{Arg: "[x", Msg: "bad pattern: syntax error in pattern", Kind: ProblemBadPattern},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			files, problems := ExpandSkipping(root, tt.args, tt.skipHidden, tt.skip)
			if !reflect.DeepEqual(files, tt.files) {
				t.Errorf("files:\n got %v\nwant %v", files, tt.files)
			}
			if !reflect.DeepEqual(problems, tt.problems) {
				t.Errorf("problems:\n got %v\nwant %v", problems, tt.problems)
			}
		})
	}
}

func TestDisplay(t *testing.T) {
	for _, c := range []struct{ cwd, p, want string }{
		{"/w", "/w/a/b.ad", "a/b.ad"},
		{"/w", "/w/..x/b.ad", "..x/b.ad"},
		{"/w/sub", "/w/b.ad", "/w/b.ad"},
		{"/w", "/w", "."},
		{"", "/w/b.ad", "/w/b.ad"},
		{"/w", "rel/b.ad", "rel/b.ad"},
	} {
		if got := Display(c.cwd, c.p); got != c.want {
			t.Errorf("Display(%q, %q) = %q, want %q", c.cwd, c.p, got, c.want)
		}
	}
}
