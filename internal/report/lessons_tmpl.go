package report

// suiteCSS holds what a suite's pages share: the "run" card, a
// requirement's name ("reqname": English first on a page in another
// language, reqNameOf) and the "css",
// the style of a suite's pages (index, lessons,
// requirements): large type for a projector, a layout that fits 1024 px,
// verdicts told by a shape (✔ ✘ ?) as well as a colour, and a print
// stylesheet. Colours keep text contrast ≥ 4.5:1 on white.
const suiteCSS = `{{define "css"}}<style>
  :root { --valid:#1b7f3b; --invalid:#b3261e; --unknown:#8a5d00; --ink:#111; --muted:#444; --line:#bbb; }
  * { box-sizing: border-box; }
  body { font-family: "Liberation Sans", "Helvetica Neue", Arial, sans-serif; font-size: 21px; line-height: 1.4;
         color: var(--ink); background: #fff; margin: 0 auto; max-width: 1500px; padding: 20px 28px 64px; }
  h1 { font-size: 34px; margin: 0 0 8px; } h2 { font-size: 28px; margin: 36px 0 10px; border-bottom: 3px solid var(--line); padding-bottom: 4px; }
  h3 { font-size: 23px; margin: 0 0 6px; overflow-wrap: anywhere; }
  nav.lessons { display: flex; flex-wrap: wrap; gap: 8px; margin: 12px 0 20px; }
  nav.lessons a { border: 2px solid var(--line); border-radius: 8px; padding: 4px 12px; text-decoration: none; color: #0b3d91; font-weight: 700; }
  nav.lessons a.current { background: #0b3d91; color: #fff; border-color: #0b3d91; }
  .totals { font-size: 24px; font-weight: 700; margin: 12px 0 16px; }
  .desc { color: var(--muted); margin: 4px 0; }
  .say { font-weight: 600; margin: 6px 0; }
  .v-valid, .v-invalid, .v-unknown, .v-error { font-weight: 800; padding: 2px 10px; border-radius: 6px; display: inline-block; }
  .v-valid { color: var(--valid); border: 2px solid var(--valid); } .v-invalid { color: #fff; background: var(--invalid); }
  .v-unknown { color: var(--unknown); border: 2px dashed var(--unknown); } .v-error { color: #fff; background: #3a3a3a; }
  .met { color: var(--valid); font-weight: 700; } .notmet { color: #fff; background: var(--invalid); font-weight: 800; padding: 0 6px; } .none { color: #555; }
  article.run { display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 3fr); gap: 16px; border: 2px solid var(--line);
                border-radius: 10px; padding: 14px; margin: 10px 0; break-inside: avoid; }
  article.run dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 12px; margin: 8px 0; font-size: 18px; }
  article.run dt { font-weight: 700; } article.run dd { margin: 0; overflow-wrap: anywhere; }
  a.open { display: inline-block; font-weight: 800; font-size: 20px; padding: 4px 12px; border: 2px solid #0b3d91; border-radius: 8px;
           text-decoration: none; color: #0b3d91; margin-top: 6px; }
  .thumb img { width: 100%; height: auto; border: 1px solid var(--line); display: block; }
  .nochart { color: #555; font-size: 18px; }
  .aborted { background: #3a3a3a; color: #fff; padding: 2px 8px; border-radius: 4px; font-size: 18px; }
  .pair { border-left: 8px solid #0b3d91; padding-left: 10px; margin: 18px 0; }
  .pairlabel { font-weight: 800; color: #0b3d91; margin: 2px 0; }
  .side { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 16px; }
  .side section { border: 2px solid var(--line); border-radius: 10px; padding: 12px; min-width: 0; }
  .side section.broken { border-color: var(--invalid); } .side section.fixed { border-color: var(--valid); }
  .side section.noevidence { border: 2px dashed var(--unknown); }
  .side section.contrast { border: 2px solid var(--unknown); }
  .question { font-size: 22px; background: #fff8e1; border-left: 6px solid var(--unknown); padding: 8px 12px; }
  .side img { width: 100%; height: auto; border: 1px solid var(--line); }
  .facts { font-size: 19px; margin: 8px 0; } .facts li { margin: 2px 0; }
  .tls .tl-label { font-weight: 800; margin: 10px 0 2px; }
  pre.diff { font-family: "Liberation Mono", Menlo, monospace; font-size: 17px; background: #f6f6f6; border: 1px solid var(--line);
             padding: 10px; overflow-x: auto; margin: 4px 0 12px; }
  pre.diff span { display: block; white-space: pre; } pre.diff .del { background: #ffe1e1; color: #6b0000; } pre.diff .add { background: #dcf5dc; color: #0b4d1c; }
  pre.diff .ctx { color: #333; } pre.diff .hunk { color: #555; }
  table.req { border-collapse: collapse; width: 100%; table-layout: fixed; font-size: 17px; }
  table.req th, table.req td { border: 1px solid var(--line); padding: 6px; vertical-align: top; overflow-wrap: break-word; }
  table.req th { background: #f0f0f0; } table.req td ul { margin: 0; padding-left: 0; list-style: none; } table.req td li { margin: 3px 0; }
  .req-kept { color: var(--valid); font-weight: 800; } .req-broken { color: var(--invalid); font-weight: 800; } .req-prevented { color: #8a5a00; font-weight: 800; } .empty { color: #555; font-style: italic; }
  @media (max-width: 1100px) { body { font-size: 19px; padding: 14px 16px 48px; } article.run { grid-template-columns: minmax(0, 1fr); } }
  @media (max-width: 820px) { .side { grid-template-columns: minmax(0, 1fr); } }
  @media print {
    body { max-width: none; font-size: 14pt; padding: 0; } nav.lessons, a.open { display: none; }
    a { color: #000; text-decoration: none; } article.run, .pair, .side section { break-inside: avoid; }
    .v-invalid, .v-error, .notmet { color: #000; background: none; border: 2px solid #000; }
  }
</style>{{end}}
{{define "run"}}<article class="run">
<div class="info">
<h3>{{if .Link}}<a href="{{.Link}}">{{.Scenario}}</a>{{else}}{{.Scenario}}{{end}}{{if .Aborted}} <span class="aborted">{{t "suite.aborted"}}</span>{{end}}</h3>
{{if .Description}}<p class="desc"{{if .DescLang}} lang="{{.DescLang}}"{{end}}>{{.Description}}</p>{{end}}
<p><span class="v-{{.Verdict}}">{{mark .Verdict}} {{.VerdictWord}}</span></p>
{{if .Headline}}<p class="say">{{.Headline}}</p>{{end}}
<dl><dt>{{t "suite.expect"}}</dt><dd>{{.Expect}}</dd><dt>{{t "suite.met"}}</dt><dd><span class="{{.MetClass}}">{{.Met}}</span></dd>
<dt>{{t "suite.seed"}}</dt><dd>{{.Seed}}</dd><dt>{{t "suite.wall"}}</dt><dd>{{.Wall}}</dd></dl>
{{range .Notes}}<p class="desc card-note">{{.}}</p>{{end}}
{{if .Link}}<a class="open" href="{{.Link}}">{{t "suite.open"}} →</a>{{else if .Error}}<code>{{.Error}}</code>{{end}}
</div>
<div class="thumb">{{if .Thumb}}<a href="{{.Link}}"><img src="{{.Thumb}}" alt="{{.Alt}}" width="1600" height="900"></a>{{else if .Link}}<span class="nochart">{{t "suite.nochart"}}</span>{{end}}</div>
</article>{{end}}
{{define "reqname"}}{{if .EN}}<span lang="en">{{.EN}}</span> ({{.Name}}){{else}}{{.Name}}{{end}}{{end}}`

// indexTemplateSuite is the suite's index.html: the runs grouped by
// lesson, each broken run followed by the run of its fix.
const indexTemplateSuite = `{{template "head" .}}{{template "css"}}
</head>
<body>
<h1>{{.Title}}</h1>
<p class="totals" id="totals">{{.Totals}}</p>
{{if .Rates}}<ul id="rates">{{range .Rates}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Nav}}<nav class="lessons" aria-label="{{t "lesson.nav"}}">{{range .Nav}}<a href="{{.Href}}">{{.Label}}</a>{{end}}<a href="{{.Req}}">{{t "suite.reqlink"}}</a></nav>{{end}}
<div id="runs">
{{range .Groups}}<h2 id="{{.ID}}">{{.Head}}{{if .Page}} — <a href="{{.Page}}">{{t "suite.lessonpg"}}</a>{{end}}</h2>
{{range .Items}}{{if .Fix}}<div class="pair">{{template "run" .Run}}<p class="pairlabel">↓ {{.Pair}}</p>{{template "run" .Fix}}</div>{{else}}{{template "run" .Run}}{{end}}
{{end}}{{end}}</div>
{{if .MadeFrom}}<footer><p class="desc made">{{.MadeFrom}}</p></footer>{{end}}
</body>
</html>`

// lessonTemplate is one lesson's page.
const lessonTemplate = `{{template "head" .}}{{template "css"}}
{{if .TimelineCSS}}<style>{{.TimelineCSS}}</style>{{end}}
</head>
<body>
<p><a href="{{.Index}}">← {{t "lesson.back"}}</a> · <a href="{{.Req}}">{{t "suite.reqlink"}}</a></p>
<nav class="lessons" aria-label="{{t "lesson.nav"}}">{{range .Nav}}<a href="{{.Href}}"{{if .Current}} class="current" aria-current="page"{{end}}>{{.Label}}</a>{{end}}</nav>
<h1>{{.Head}}</h1>
{{if .Goal}}<section class="lesson-goal"><h2>{{t "lesson.goal"}}</h2><p>{{.Goal}}</p>
<p class="desc">{{.RequirementsHead}} {{range $i, $r := .Requirements}}{{if $i}}, {{end}}<strong>{{template "reqname" $r}}</strong>{{end}}.</p></section>{{end}}
{{if .Pairs}}<h2>{{t "lesson.pairs"}}</h2>{{end}}
{{range .Pairs}}<div class="pair" data-broken="{{.Broken.Scenario}}" data-fixed="{{.Fixed.Scenario}}">
{{if .Question}}<p class="question"><strong>{{t "lesson.predict"}}</strong> {{.Question}}</p>{{end}}
<div class="side">
<section class="broken"><p class="pairlabel">{{t "lesson.broken"}}</p>{{template "side" .Broken}}</section>
<section class="{{.FixedClass}}"><p class="pairlabel">{{.FixedLabel}}</p>{{template "side" .Fixed}}</section>
</div>
<ul class="facts"><li>{{.Seeds}}</li><li>{{.Faults}}</li><li>{{.Axis}}</li></ul>
{{if .Evidence}}<ul class="facts evidence">{{range .Evidence}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Strip}}<table class="req strip"><caption>{{t "lesson.strip"}}</caption><tr><th>{{t "lesson.strip.req"}}</th><th>{{t "lesson.broken"}}</th><th>{{.FixedLabel}}</th></tr>
{{range .Strip}}<tr><th>{{template "reqname" .Requirement}}</th><td class="{{.BClass}}">{{.Broken}}</td><td class="{{.FClass}}">{{.Fixed}}</td></tr>{{end}}</table>{{end}}
{{if .Timelines}}<div class="tls">{{.Timelines}}</div>{{end}}
{{if eq .Side "control"}}{{if or .YAML .YAMLNone}}<h3>{{t "lesson.change.control"}}</h3>{{end}}{{else if eq .Side "contrast"}}{{if or .YAML .YAMLNone}}<h3>{{t "lesson.change.contrast"}}</h3>{{end}}{{else if .Changes}}<h3>{{t "lesson.change"}}</h3>{{end}}
{{range .Changes}}<p>{{.Note}}</p>{{if .Lines}}<pre class="diff">{{range .Lines}}{{template "dl" .}}{{end}}</pre>{{end}}{{end}}
{{if .YAML}}<p class="desc">{{t "lesson.change.yaml"}}</p><pre class="diff">{{range .YAML}}{{template "dl" .}}{{end}}</pre>{{else if .YAMLNone}}<p class="desc">{{t "lesson.change.none"}}</p>{{end}}
</div>
{{end}}
{{if .NoPair}}<p class="desc">{{t "lesson.nopair"}}</p>{{end}}
{{if .Takeaways}}<h2>{{t "lesson.takeaways"}}</h2><ul class="takeaways">{{range .Takeaways}}<li>{{template "note" .}}</li>{{end}}</ul>{{end}}
{{if .Caveats}}<h2>{{t "lesson.caveats"}}</h2><ul class="caveats">{{range .Caveats}}<li>{{template "note" .}}</li>{{end}}</ul>{{end}}
{{range .Missing}}<p class="desc">{{.Text}}{{if .Link}} <a href="{{.Link}}">{{.LinkText}} →</a>{{end}}</p>{{end}}
{{if .More}}<h2>{{t "lesson.more"}}</h2>{{range .More}}{{template "run" .}}{{end}}{{end}}
{{if .MadeFrom}}<footer><p class="desc made">{{.MadeFrom}}</p></footer>{{end}}
{{if .TimelineJS}}<script>{{.TimelineJS}}</script>{{end}}
</body>
</html>
{{define "side"}}<h3>{{if .Link}}<a href="{{.Link}}">{{.Scenario}}</a>{{else}}{{.Scenario}}{{end}}</h3>
{{if .Description}}<p class="desc"{{if .DescLang}} lang="{{.DescLang}}"{{end}}>{{.Description}}</p>{{end}}
<p><span class="v-{{.Verdict}}">{{mark .Verdict}} {{.VerdictWord}}</span></p>
{{if .Headline}}<p class="say">{{.Headline}}</p>{{end}}
{{if .Below}}{{else if .Thumb}}<a href="{{.Link}}"><img src="{{.Thumb}}" alt="{{.Alt}}" width="1600" height="900"></a>{{else}}<p class="nochart">{{t "lesson.notimeline"}}</p>{{end}}
{{if .Link}}<p><a class="open" href="{{.Link}}">{{t "lesson.open"}} →</a></p>{{end}}{{end}}
{{define "note"}}{{.Text}}{{if or .Runs .NotRun}}<p class="desc runs">{{if .Runs}}{{t "lesson.note.head"}} {{range $i, $r := .Runs}}{{if $i}}; {{end}}{{if $r.Link}}<a href="{{$r.Link}}">{{$r.Name}}</a>{{else}}{{$r.Name}}{{end}}: {{$r.Where}}{{end}}.{{end}}{{if and .Runs .NotRun}} {{end}}{{.NotRun}}</p>{{end}}{{end}}
{{define "dl"}}{{if eq .Op "-"}}<span class="del">− {{.Text}}</span>{{else if eq .Op "+"}}<span class="add">+ {{.Text}}</span>{{else if eq .Op "@"}}<span class="hunk">{{.Text}}</span>{{else}}<span class="ctx">  {{.Text}}</span>{{end}}{{end}}`

// requirementsTemplate is requirements.html.
const requirementsTemplate = `{{template "head" .}}{{template "css"}}
</head>
<body>
<p><a href="{{.Index}}">← {{t "lesson.back"}}</a></p>
{{if .Nav}}<nav class="lessons" aria-label="{{t "lesson.nav"}}">{{range .Nav}}<a href="{{.Href}}">{{.Label}}</a>{{end}}</nav>{{end}}
<h1>{{.Head}}</h1>
<p class="desc">{{t "req.intro"}}</p>
<table class="req" id="requirements">
<colgroup><col style="width: 14%">{{range .Cols}}<col>{{end}}</colgroup>
<tr><th>{{t "req.algorithm"}}</th>{{range .Cols}}<th>{{template "reqname" .}}</th>{{end}}</tr>
{{range .Rows}}<tr><th scope="row">{{.Algorithm}}</th>{{range .Cells}}<td>{{if .Runs}}<ul>{{range .Runs}}<li><span class="{{.Class}}">{{.Showing}}</span>: {{if .Link}}<a href="{{.Link}}">{{.Name}}</a>{{else}}{{.Name}}{{end}} <span class="v-{{.Verdict}}">{{.VerdictWord}}</span></li>{{end}}</ul>{{else if .NA}}<span class="empty">{{.NA}}</span>{{else}}<span class="empty">{{.Empty}}</span>{{end}}</td>{{end}}</tr>
{{end}}</table>
<h2>{{t "req.rules"}}</h2>
<ul>{{range .Rules}}<li>{{.}}</li>{{end}}</ul>
</body>
</html>`
