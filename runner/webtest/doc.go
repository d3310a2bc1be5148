// Package webtest holds the runner's tests against real Chromium (the ref
// frame's evidence on a live page, traces of web steps). They live apart
// from package runner's own tests so that fuzzing the runner (FuzzDispatch)
// builds a test binary without the browser driver: a fuzz build instruments
// every package it links, and instrumenting the CDP protocol packages took
// 221 s of a loaded 2-core machine's gate, for a target that never calls them.
package webtest
