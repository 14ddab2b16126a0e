// Package page holds what every locksim HTML page shares: its head (the
// doctype, <html lang>, charset, viewport and <title>) and the plain style
// of the English tool pages (the parameter map, the shrink page). The run
// page, the suite's pages, history.html, map.html and shrink.html all open
// with it, so a change to the head is made once. It imports nothing of
// locksim.
package page

import (
	"fmt"
	"html/template"
	"io"
)

// Head defines the templates "head" and "plain.css". "head" writes the
// page's opening up to and including its <title>, from the data's Lang and
// Title fields; the page goes on with its own <style> and </head>.
// "plain.css" is the rules of the tool pages: large type for a projector
// (20 px sans serif, 1600 px wide at most).
const Head = `{{define "head"}}<!DOCTYPE html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
{{end}}{{define "plain.css"}}  body { font-family: "Liberation Sans", "Helvetica Neue", Arial, sans-serif; font-size: 20px; line-height: 1.4;
         color: #111; background: #fff; margin: 0 auto; max-width: 1600px; padding: 24px 32px 64px; }
  h1 { font-size: 32px; }
{{end}}`

// Parse parses a page's template body (which calls {{template "head" .}})
// together with Head, with funcs (nil for none).
func Parse(name, body string, funcs template.FuncMap) (*template.Template, error) {
	t := template.New(name).Funcs(funcs)
	if _, err := t.Parse(Head); err != nil {
		return nil, fmt.Errorf("page head: %w", err)
	}
	if _, err := t.Parse(body); err != nil {
		return nil, fmt.Errorf("page %s: %w", name, err)
	}
	return t, nil
}

var head = template.Must(template.New("head").Parse(Head))

// WriteHead writes the head of a page written by hand (history.html) to
// w: lang is its language code ("en", "vi"), title its title (escaped
// here).
func WriteHead(w io.Writer, lang, title string) error {
	return head.ExecuteTemplate(w, "head", struct{ Lang, Title string }{lang, title})
}
