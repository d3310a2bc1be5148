package runner

import "github.com/adtest/adtest/runner/internal/frame"

// The session's side of the ref frame (runner/internal/frame): captures are
// frame.Captures, and admission failures become structured errors.

// observation is one immutable capture and the refs it prints.
type observation = frame.Capture

// refRejected turns a frame admission failure into the step's error.
func refRejected(r *frame.Rejection) *ErrorInfo {
	if r == nil {
		return nil
	}
	return &ErrorInfo{Code: CodeCommandFailed, Reason: r.Reason, Message: r.Message, Hint: frame.Hint, Details: r.Details}
}

// admitMutation admits a ref for a mutating command against the frame.
func (s *Session) admitMutation(r frame.Ref) (int, *ErrorInfo) {
	idx, rej := s.frame.AdmitMutation(r)
	return idx, refRejected(rej)
}

// readRef resolves a ref for a read-only consumer from the frame's tree.
func (s *Session) readRef(r frame.Ref) (int, string, *ErrorInfo) {
	idx, warn, rej := s.frame.ReadRef(r)
	return idx, warn, refRejected(rej)
}
