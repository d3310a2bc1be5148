module github.com/adtest/adtest

go 1.26

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/fatih/color v1.19.0
	github.com/mattn/go-isatty v0.0.20
	github.com/pmezard/go-difflib v1.0.0
	github.com/rogpeppe/go-internal v1.16.0
	github.com/sebdah/goldie/v2 v2.8.0
)

require (
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/sergi/go-diff v1.0.0 // indirect
	golang.org/x/sys v0.42.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
)
