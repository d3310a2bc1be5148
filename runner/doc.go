// Package runner runs .ad steps against a device: sessions, the ADR 0014 ref
// frame, the one leaf dispatch with its side-effect seam, and the replay
// executor. Its rooms build on it: the suite runner (runner/suite) on
// NewSession and Replay, the repair and annotation of scripts
// (runner/repair) on a replay's divergence; runner/webtest holds the
// runner's tests against real Chromium.
//
// # Shape
//
//   - session.go: Session, SessionConfig, Clock. The session owns its
//     driver: evidence.go is what it hands to readers outside the step path
//     (Evidence for a failed attempt's artifacts, Capture for the recorder).
//   - internal/frame: the ref frame. Its fields are unexported, so only that
//     package constructs, activates, publishes or expires a frame.Frame, and
//     every transition returns a new value; the compiler holds it. refs.go
//     is the session's side (captures, admission errors); the one thing the
//     type cannot judge, an assignment of the session's frame, is held by
//     TestFrameAssignmentGate. The session keeps the frame apart from its
//     latest observation; both share one immutable capture (no copy).
//   - dispatch.go: Session.Dispatch, the single leaf path for replay and
//     interactive commands, and the leaf table built with add (a panic at
//     start-up for an unknown or duplicate command, or a command of
//     lang.Commands without a row). Every command has a leaf or a typed
//     UNSUPPORTED_OPERATION.
//   - seam.go: the side-effect seam. A mutating leaf runs its pre-action
//     guards (admission, target resolution) and returns a mutation;
//     Session.mutate runs Preflighter.Preflight, expires the frame (the only
//     place that does; lang.EffectOf decides) and performs the device
//     operations, with no rollback afterwards.
//   - observe.go, resolve.go: internal captures and polls; ref and selector
//     resolution.
//   - leaf_touch.go, leaf_read.go, leaf_find.go, leaf_snapshot.go,
//     leaf_system.go: the leaves by family.
//   - match (package runner/match): the selector matcher, find's fuzzy
//     locator, the target-v1 identity check and the one place that names an
//     element (selectors, target-v1 evidence, divergence suggestions),
//     shared with the recorder and the repair; match.go turns a
//     resolution's outcome into the step's error.
//   - render.go: snapshot text and JSON, ref numbering (e1..eN in document
//     order over printed nodes).
//   - verify.go: target-v1 binding verification before dispatch (§4.2.2).
//   - step.go: Session.Step, the one path of a command (interpolate, bind
//     with lang.Bind, verify, dispatch, each under the step bound).
//   - hook.go: StepHook, the one step hook the session calls around every
//     step (begin, before the mutation, acted, end) with the driver's
//     events of the step, and the step record it hears: JournalEntry, from
//     which the step event (Event), the JSON step result (Result) and,
//     through the event, timing.ndjson's step lines are derived. A
//     recording's Journal, a replay's Observer and the trace (package
//     runner/trace) are its implementations. The session calls them
//     (session.go); its act is the one call to Driver.Act.
//   - events.go: Observer, the one listener interface of replays, the suite
//     runner and reporters, and the suite's events.
//   - replay.go: Replay (a loop over step records), REPLAY_DIVERGENCE with
//     its divergence report (divergence.go), and redaction.
//   - trace (package runner/trace): the per-step trace (--trace), a step
//     hook, and trace.json's schema; repair_report.go, the repair record a
//     result carries;
//     mask.go, the masker every written text goes through; errors.go,
//     result.go, exit.go: error codes, the result shape, the one exit rule.
//
// # ADR 0014 required evidence → tests
//
// Each test below was seen red once by breaking the code it guards (the
// mutation named in brackets), then restored.
//
//	 1 second bare/pinned mutation rejected   TestEvidence01SecondMutationRejected, TestDoneWhen, TestDoneWhenExact [seam in mutate a no-op; expired check removed]
//	 2 pre-seam failures preserve the frame   TestEvidence02PreSeamFailuresPreserve, TestTargetVerification [seam moved before Preflight; verification skipped]
//	 3 post-seam failures leave it expired    TestEvidence03PostSeamFailuresExpire [seam in mutate a no-op]
//	 4 ref/selector/coordinate/provider/      TestEvidence04EveryPathCrossesTheSeam, TestEvidence04SeamBeforeDeviceOp [seam in mutate a no-op]
//	   lifecycle paths cross one seam         (fake driver: ref, selector, point, find, open/close, keyboard, alert, gestures)
//	 6 reads do not replace the frame         TestEvidence06ReadsDoNotReplaceFrame [internal capture activating]
//	 7 partial publication / typed failures   TestEvidence07PartialPublication, TestEvidence07EmptyPartialKeepsFrame, TestDiffSnapshotPublishesAddedRefs, TestAdmissionOrderAndShape [plain-on-partial check removed; empty publication superseding; diff not publishing]
//	 8 complete admits, sparse does not       TestEvidence08CompleteVsSparse [sparse capture activating]
//	 9 mutating find never publishes          TestEvidence09MutatingFindDoesNotPublish [mutating find publishing]
//	10 replay delegates per step              TestEvidence10ReplayDelegates, TestDivergenceReport [Replay expiring at start; divergence not publishing]
//	11 scripts carry no generation pins      TestEvidence11ScriptsCarryNoPins [printer keeping the pin as written]
//	12 series resolve and expire once         TestEvidence12SeriesExpireOnce [swipe expiring per repetition]
//	14 scoped-snapshot lineage                TestEvidence14ScopeLineage [lineage disabled]
//	15 fused keyboard/alert seams             TestEvidence15FusedAndSplitSeams [alert accept not crossing]
//	16 failed/timed-out open expires          TestEvidence16FailedOpenExpires [seam after Open]
//	17 stale reads warn, missing evidence     TestEvidence17StaleReads, TestEvidence14ScopeLineage [stale read failing]
//	   fails
//	18 no deep copy, bounded retention        TestEvidence18NoDeepCopy, BenchmarkActivateFrame10k [activation copying nodes]
//	19 consistent enforcement and shapes      TestEvidence19ConsistentShapes [fill resolving as a read]
//
//	web (real Chromium, examples/web app on loopback; runner/webtest/web_evidence_test.go)
//	 4 ref: click @eN then @eM: one click     TestWebEvidenceRefTarget [seam in mutate a no-op: the 2nd click lands or is target_stale; act crossing only for points]
//	 4 selector click/fill/hover/focus expire TestWebEvidenceSelectorTarget [act crossing only for points; expired frame gating selectors]
//	   and are never rejected themselves
//	 4 coordinate click expires, never        TestWebEvidenceCoordinateTarget [act crossing only for node targets; expired frame gating points]
//	   rejected itself
//	15 alert accept/dismiss expire with no    TestWebEvidenceAlerts [accept/dismiss without the seam; alert get expiring]
//	   alert open; alert get preserves
//	15 keyboard dismiss/enter expire with     TestWebEvidenceKeyboard [key sent without the seam; keyboard status expiring]
//	   nothing focused; status/get preserve
//	16 open/open --relaunch expire first,     TestWebEvidenceOpenExpires [seam after Open]
//	   unreachable URL stays expired
//	 2 target_covered (Preflight) preserves   TestWebEvidenceCoveredPreservesFrame [seam moved before Preflight]
//
// The field-owner gate: the compiler refuses a frame literal with fields or
// a field edit outside runner/internal/frame; TestFrameAssignmentGate
// refuses a foreign assignment of the session's frame [s.frame =
// frame.Frame{} in Session.Close].
//
// Items 5 and 13 (Android freshness and dialog recovery) have no test: the
// Android driver neither re-targets an admitted ref by position nor recovers
// from dialogs on its own (a ref's target covered by a system dialog fails
// target_covered, and the script answers the dialog with alert). Item 11 is covered for the
// scripts adtest writes: fmt, and the recorder's refs-to-selectors rewrite
// (recorder). Completeness of the classification: TestEveryCommandClassified
// [a command without a decision].
package runner
