package recorder

// A stand-in for lang.FormatAction until the step-pipeline API lands.

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/adtest/adtest/lang"
)

var numRe = regexp.MustCompile(`^-?\d+(\.\d+)?$`)

func formatAction(a *lang.Action) string {
	var b strings.Builder
	if a.TargetEvidence != nil {
		j, _ := json.Marshal(a.TargetEvidence)
		b.WriteString("# agent-device:target-v1 ")
		b.Write(j)
		b.WriteByte('\n')
	}
	b.WriteString(a.Command)
	for _, p := range a.Positionals {
		b.WriteByte(' ')
		if _, _, pinned, ok := lang.ParseRef(p); (ok && !pinned) || numRe.MatchString(p) {
			b.WriteString(p)
		} else {
			j, _ := json.Marshal(p)
			b.Write(j)
		}
	}
	spec, _ := lang.LookupCommand(a.Command)
	for _, f := range spec.Flags {
		src := a.Flags
		if f.Runtime {
			src = a.Runtime
		}
		v, ok := src[f.Key]
		if !ok || f.Key == "" {
			continue
		}
		if f.Kind == lang.FlagBool {
			if v == true {
				b.WriteString(" " + f.Names[0])
			}
			continue
		}
		b.WriteString(" " + f.Names[0] + " " + fmt.Sprint(v))
	}
	return b.String()
}
