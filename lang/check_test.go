package lang

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// TestCheckGolden checks every testdata/check/*.ad and compares the
// formatted diagnostics (with hints) with testdata/check/<name>.golden.
// Update with: go test ./lang -run TestCheckGolden -update
func TestCheckGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "check", "*.ad"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no check fixtures: %v", err)
	}
	opts := map[string]CheckOptions{
		"variables.ad":      {Vars: map[string]string{"CLI_ONLY": "x"}},
		"context_values.ad": {Compat: true}, // the agent-device-only warnings
		"lexical.ad":        {Compat: true},
	}
	g := goldie.New(t, goldie.WithFixtureDir(filepath.Join("testdata", "check")), goldie.WithNameSuffix(".golden"))
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			_, ds := CheckSource(name, src, opts[name])
			g.Assert(t, strings.TrimSuffix(name, ".ad"), []byte(FormatDiagnostics(ds, name)))
		})
	}
}

// checkCorpusExpectedErrors lists corpus files (relative to the corpus root)
// that parse but that Check rejects on purpose, with the rule that fires.
var checkCorpusExpectedErrors = map[string]string{
	// A test artifact named replay.ad that actually holds Maestro YAML (spec §10.1).
	"callstack-index-newest/.agent-device/test-artifacts/req-maestro-test-wire-undefined/01-flow.yaml/attempt-1/replay.ad": "unknown-command,unknown-command,unknown-command",
}

// TestCheckCorpus checks every corpus script that parses: none may produce an
// error diagnostic, except the listed files, which must produce theirs.
func TestCheckCorpus(t *testing.T) {
	root := corpusDir(t)
	var files []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".ad") && !strings.Contains(p, string(filepath.Separator)+"expected"+string(filepath.Separator)) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 70 {
		t.Fatalf("found %d corpus scripts, want the 74 of the corpus", len(files))
	}
	parsed := 0
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		t.Run(rel, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if _, errs := ParseAll(rel, src); len(errs) > 0 {
				return // parse failures are the parser's corpus test
			}
			parsed++
			_, ds := CheckSource(rel, src, CheckOptions{})
			var rules []string
			var text []string
			for _, d := range ds {
				if d.Severity == SeverityError {
					rules = append(rules, d.Rule)
					text = append(text, d.Format(rel))
				}
			}
			want := checkCorpusExpectedErrors[rel]
			got := strings.Join(rules, ",")
			if got != want {
				t.Fatalf("error rules = %q, want %q:\n%s", got, want, strings.Join(text, "\n"))
			}
		})
	}
	if parsed < 50 {
		t.Fatalf("only %d corpus scripts parsed", parsed)
	}
}

func vtBenchScript() []byte {
	var sb strings.Builder
	sb.WriteString("context platform=android timeout=30000\nenv APP=com.example.app\nopen ${APP} --relaunch\n")
	for i := 0; i < 200; i++ {
		sb.WriteString("snapshot -i\nclick @e1\nfill \"label=Email editable=true\" \"${EMAIL:-ada@example.com}\" --delay-ms 20\n")
		sb.WriteString("wait \"label=\\\"Order summary\\\"\" 5000\nscroll down 0.6\n")
	}
	sb.WriteString("close\n")
	return []byte(sb.String())
}

// BenchmarkCheckSource parses and checks a 1 000-action script.
func BenchmarkCheckSource(b *testing.B) {
	src := vtBenchScript()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, ds := CheckSource("bench.ad", src, CheckOptions{}); len(ds) != 0 {
			b.Fatalf("unexpected diagnostics: %v", ds[0].Format("bench.ad"))
		}
	}
}

// BenchmarkCheck checks an already parsed 1 000-action script.
func BenchmarkCheck(b *testing.B) {
	src := vtBenchScript()
	s, errs := ParseAll("bench.ad", src)
	if len(errs) > 0 {
		b.Fatal(errs[0])
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if ds := Check(s, string(src), CheckOptions{}); len(ds) != 0 {
			b.Fatalf("unexpected diagnostics: %v", ds[0].Format("bench.ad"))
		}
	}
}

// BenchmarkCheckCold checks a freshly parsed script each iteration (the
// parse is outside the measurement): no binding is left from an earlier
// iteration.
func BenchmarkCheckCold(b *testing.B) {
	src := vtBenchScript()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s, errs := ParseAll("bench.ad", src)
		if len(errs) > 0 {
			b.Fatal(errs[0])
		}
		b.StartTimer()
		if ds := Check(s, string(src), CheckOptions{}); len(ds) != 0 {
			b.Fatal(ds[0].Message)
		}
	}
}
