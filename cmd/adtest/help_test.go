package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestHelpCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		args       []string
		code       int
		stdoutHas  string
		stderrWant string
	}{
		{"script command", []string{"help", "swipe"}, 0, "swipe — quick fixed-duration fling between two points\n\nusage: swipe x1 y1 x2 y2 [--count n] [--pause-ms n] [--pattern one-way|ping-pong]\n\nref frame:  may-invalidate\nrecorded:   yes\nplatforms:  ios, android, macos, linux, web\n", ""},
		{"conditional command", []string{"help", "keyboard"}, 0, "ref frame:  conditional\n", ""},
		{"subcommand", []string{"help", "parse"}, 0, "adtest parse — print agent-device's compat JSON parse of each file\n", ""},
		{"command list", []string{"help", "commands"}, 0, "  wait                 preserve        sleep, or poll until", ""},
		{"markdown", []string{"help", "commands", "--markdown"}, 0, "| [`click`](#click) | may-invalidate | yes | ios, android, macos, linux, web | tap or click a target |\n", ""},
		{"typo", []string{"help", "scrol"}, 2, "", "adtest help: unknown command \"scrol\" (did you mean \"scroll\"?)\nRun \"adtest help commands\" for the list of script commands.\n"},
		{"bad commands flag", []string{"help", "commands", "--html"}, 2, "", "adtest help commands: unknown flag --html\nusage: adtest help commands [--markdown]\n"},
	}
	for _, tt := range tests {
		code, out, errOut := runMain(t, "", tt.args...)
		if code != tt.code || !strings.Contains(out, tt.stdoutHas) || errOut != tt.stderrWant {
			t.Errorf("%s: exit %d\nstdout:\n%s\nstderr:\n%s\nwant exit %d, stdout containing:\n%s\nstderr:\n%s", tt.name, code, out, errOut, tt.code, tt.stdoutHas, tt.stderrWant)
		}
	}
}

// TestDocsCommandsUpToDate fails when docs/commands.md is stale: run `make docs`.
func TestDocsCommandsUpToDate(t *testing.T) {
	t.Parallel()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	checked, err := os.ReadFile(filepath.Join(root, "docs", "commands.md"))
	if err != nil {
		t.Fatalf("docs/commands.md: %v (run make docs)", err)
	}
	code, out, _ := runMain(t, "", "help", "commands", "--markdown")
	if code != 0 {
		t.Fatalf("help commands --markdown exited %d", code)
	}
	if string(checked) != out {
		t.Fatal("docs/commands.md is stale: run `make docs` and commit the result")
	}
}
