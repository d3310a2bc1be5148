package lang

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkParseCorpus parses every corpus file once per iteration.
func BenchmarkParseCorpus(b *testing.B) {
	root, files := corpusFiles(b)
	srcs := make([][]byte, len(files))
	for i, rel := range files {
		src, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			b.Fatal(err)
		}
		srcs[i] = src
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i, src := range srcs {
			_, _ = Parse(files[i], src)
		}
	}
}

// realisticScript generates n lines in the shape of recorded scripts.
func realisticScript(n int) []byte {
	var sb strings.Builder
	sb.WriteString("context platform=android timeout=60000 retries=1 device=\"Pixel 9\"\nenv APP=com.example.shop\n")
	body := []string{
		"open ${APP} --relaunch",
		"snapshot -i",
		"# agent-device:target-v1 {\"id\":\"add\",\"role\":\"button\",\"label\":\"Add to cart\",\"ancestry\":[{\"role\":\"list\"}],\"sibling\":1,\"viewportOrder\":0,\"verification\":\"verified\"}",
		"click \"role=button label=\\\"Add to cart\\\" || label=\\\"Add to cart\\\"\" --count 2",
		"fill \"id=email\" \"ada@example.com\" --delay-ms 20",
		"wait \"label=\\\"Order summary\\\"\" 5000",
		"scroll down 0.6",
		"",
		"# step comment",
		"swipe 200 700 200 250 --count 2 --pattern ping-pong",
		"gesture pan 206 700 0 -450 300",
		"press @e12 \"Continue\"",
		"type \"hello world\"",
		"screenshot ./shots/step.png --fullscreen",
	}
	for i := 2; i < n; i++ {
		sb.WriteString(body[i%len(body)])
		sb.WriteByte('\n')
	}
	return []byte(sb.String())
}

// BenchmarkParse10kLines parses a generated 10,000-line realistic script.
func BenchmarkParse10kLines(b *testing.B) {
	src := realisticScript(10000)
	if _, err := Parse("big.ad", src); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_, _ = Parse("big.ad", src)
	}
}

// BenchmarkParseLongLine parses one action line of the given size; compare
// the sizes to see linear growth.
func BenchmarkParseLongLine(b *testing.B) {
	for _, size := range []int{64 << 10, 1 << 20} {
		quoted := "type \"" + strings.Repeat("ab\\n ", size/5) + "\"\n"
		bare := "click " + strings.Repeat("x ", size/2) + "\n"
		for name, src := range map[string]string{"quoted": quoted, "bare": bare} {
			b.Run(fmt.Sprintf("%s-%dKiB", name, size>>10), func(b *testing.B) {
				if _, err := Parse("long.ad", []byte(src)); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(src)))
				for b.Loop() {
					_, _ = Parse("long.ad", []byte(src))
				}
			})
		}
	}
}
