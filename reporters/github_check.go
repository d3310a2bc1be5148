package reporters

import (
	"fmt"
	"io"

	"github.com/adtest/adtest/lang"
)

// WriteCheckGitHub writes the diagnostics of `adtest check` on file as
// GitHub Actions ::error / ::warning workflow commands, each on its line
// and column, its rule in the title and its hint below the message.
func WriteCheckGitHub(w io.Writer, ds []lang.Diagnostic, file string) error {
	for _, d := range ds {
		msg := d.Message
		if d.Hint != "" {
			msg += "\nhint: " + d.Hint
		}
		if _, err := fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d,title=adtest check (%s)::%s\n",
			d.Severity, ghProp(file), d.Pos.Line, max(d.Pos.Column, 1), ghProp(d.Rule), ghData(msg)); err != nil {
			return err
		}
	}
	return nil
}
