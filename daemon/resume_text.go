package daemon

import (
	"fmt"
	"io"
	"strconv"

	"github.com/adtest/adtest/internal/scriptpath"
	"github.com/adtest/adtest/internal/shellquote"
	"github.com/adtest/adtest/runner"
)

// WriteResume writes the command that continues the failed replay req
// (text mode): the divergence's resume point and the plan digest, the
// script's path shown relative to cwd. Nothing without a resume point.
func WriteResume(w io.Writer, cwd string, req *Request, e *runner.ErrorInfo) {
	div := e.Divergence()
	if div == nil || div.Resume == nil {
		return
	}
	resume := div.Resume
	if resume.AlternateFrom != 0 {
		fmt.Fprintf(w, "Plan digest: %s\nResume: fix the app state, then %s (or --from %d to skip the failed step)\n",
			resume.PlanDigest, resumeCommand(cwd, req, resume.From, resume.PlanDigest), resume.AlternateFrom)
		return
	}
	fmt.Fprintf(w, "Plan digest: %s\nResume: fix the app state, then %s\n",
		resume.PlanDigest, resumeCommand(cwd, req, resume.From, resume.PlanDigest))
}

// resumeCommand is the replay command that resumes from step from, quoted
// for a shell.
func resumeCommand(cwd string, req *Request, from int, digest string) string {
	return shellquote.Join("adtest", "replay", scriptpath.Display(cwd, req.Replay.File), "--session", req.Session,
		"--from", strconv.Itoa(from), "--plan-digest", digest)
}
