package web

import (
	"fmt"
	"os"
	"strings"
)

// ProfileLeftovers describes what is left of the given Chromium profile
// directories: live processes started with one of them and directories still
// on disk ("" when nothing is). A leak check calls it after Provider.Close;
// Close itself kills such processes and removes its profiles.
func ProfileLeftovers(dirs []string) string {
	var out []string
	for _, dir := range dirs {
		if dir == "" {
			continue
		}
		if pids := profileProcesses(dir); len(pids) > 0 {
			out = append(out, fmt.Sprintf("processes %v of %s", pids, dir))
		}
		if _, err := os.Stat(dir); err == nil {
			out = append(out, "directory "+dir)
		}
	}
	return strings.Join(out, "; ")
}
