package report

// profileTemplate is profile.html: `locksim explore`'s safety profile, one
// row per fault class, in the suite pages' style (large type for a
// projector). The steps of a schedule are faults.Describe's English words,
// marked lang="en"; their YAML is the regression file itself.
const profileTemplate = `{{template "head" .}}{{template "css"}}
<style>
  table.profile { table-layout: fixed; }
  table.profile td.status { font-weight: 800; overflow-wrap: anywhere; }
  tr.st-broken td.status { color: #fff; background: var(--invalid); }
  tr.st-flaky td.status { color: var(--invalid); border: 3px dashed var(--invalid); }
  tr.st-survived td.status { color: var(--valid); }
  tr.st-untried td.status { color: var(--unknown); }
  .caveat { border-left: 8px solid var(--unknown); padding: 6px 12px; background: #fff7e0; }
  .langs a { margin-right: 12px; font-weight: 700; }
  table.profile img { width: 100%; max-width: 560px; height: auto; border: 1px solid var(--line); display: block; margin: 6px 0; }
  table.profile ol { margin: 4px 0; padding-left: 22px; }
  code.repro { display: block; white-space: pre-wrap; overflow-wrap: anywhere; font-size: 15px; background: #f6f6f6; padding: 4px 6px; }
  .req-kept { color: var(--valid); font-weight: 700; } .req-broken { color: var(--invalid); font-weight: 800; }
</style>
</head>
<body>
{{if .Others}}<p class="langs">{{range .Others}}<a href="{{index . 1}}" hreflang="{{index . 0}}" lang="{{index . 0}}">{{index . 0}}</a>{{end}}</p>{{end}}
<h1>{{call .T "explore.title" .Algorithm}}</h1>
<p class="desc">{{call .T "explore.intro" .K}}</p>
<p class="caveat" id="caveat"><strong>{{call .T "explore.caveat"}}</strong></p>
<p class="totals" id="totals">{{call .T "explore.totals" (.Count "broken") (.Count "flaky") (.Count "survived") (.Count "untried") .Runs (secs .ElapsedSeconds)}}</p>
{{if .Interrupted}}<p><span class="aborted">{{call .T "explore.interrupted"}}</span></p>{{end}}
{{if .Abandoned}}<p class="notmet">{{call .T "explore.abandoned" .Abandoned}}</p>{{end}}
<ul class="facts" id="facts">
<li>{{call .T "explore.f.lock" .Algorithm}} <code>{{.Workload}}</code>{{if .Traits}} <code>({{join .Traits}})</code>{{end}}</li>
<li>{{call .T "explore.f.topology" .Nodes .Clients .Persistence}}{{if .Replicas}} {{call .T "explore.f.replicas" .Replicas .Sentinels}}{{end}}{{if .Fencing}} {{call .T "explore.f.fencing"}}{{end}}</li>
<li>{{if .RenewalSeconds}}{{call .T "explore.f.scales" .TTLSeconds .JobSeconds .RenewalSeconds}}{{else}}{{call .T "explore.f.norenewal" .TTLSeconds .JobSeconds}}{{end}}</li>
<li>{{call .T "explore.f.seed" .Seed .Budget .ShrinkBudget .K}}{{if .Shard}} {{call .T "explore.f.shard" .Shard}}{{end}}{{if .Shards}} {{call .T "explore.f.shards" (join .Shards)}}{{end}}</li>
<li>{{call .T "explore.f.baseline"}}: <span class="v-{{.Baseline.Verdict}}">{{mark .Baseline.Verdict}} {{t (print "verdict." .Baseline.Verdict)}}</span>{{if .Baseline.Report}} <a href="{{.Baseline.Report}}">{{call .T "explore.min.report"}}</a>{{end}}</li>
<li>{{call .T "explore.f.reproduce"}}: <code class="repro">{{.Reproduce}}</code></li>
</ul>
{{if .BaselineBroken}}<p class="notmet">{{call .T "explore.baseline.broken"}}</p>{{end}}
<table class="req profile" id="profile">
<colgroup><col style="width: 11%"><col style="width: 14%"><col style="width: 13%"><col style="width: 20%"><col style="width: 13%"><col style="width: 29%"></colgroup>
<tr><th>{{call .T "explore.th.class"}}</th><th>{{call .T "explore.th.result"}}</th><th>{{call .T "explore.th.schedules"}}</th><th>{{call .T "explore.th.ranges"}}</th><th>{{call .T "explore.th.req"}}</th><th>{{call .T "explore.th.minimal"}}</th></tr>
{{range $r := .Rows}}<tr id="class-{{.Class}}" class="st-{{.Status}}">
<th scope="row"><code>{{.Class}}</code></th>
<td class="status">{{if eq .Status "broken"}}✘ {{call $.T "explore.st.broken" (secs .FirstViolationSeconds)}}{{else if eq .Status "flaky"}}✘? {{call $.T "explore.st.flaky" (secs .FirstViolationSeconds)}}{{else if eq .Status "survived"}}✔ {{call $.T "explore.st.survived" .Valid}}{{else}}? {{call $.T "explore.st.untried"}}{{end}}{{with .Minimal}}{{if .Kinds}}<br><code>{{join .Kinds}}</code>{{end}}{{else}}{{with .Found}}{{if .Kinds}}<br><code>{{join .Kinds}}</code>{{end}}{{end}}{{end}}</td>
<td>{{call $.T "explore.schedules" .Schedules .Valid .Invalid .Unknown .Guided}}</td>
<td>{{if .Ranges}}<ul>{{range .Ranges}}<li><code>{{.Field}}</code> <code>{{$.Range .}}</code></li>{{end}}</ul>{{end}}</td>
<td><ul>{{range $.ReqOrder}}{{with $.Has $r .}}<li>{{if eq .Showing "broken"}}<span class="req-broken">✘ {{call $.T "explore.req.broken" ($.Req .Req)}}</span>{{else}}<span class="req-kept">✔ {{call $.T "explore.req.kept" ($.Req .Req) .Runs}}</span>{{end}}</li>{{end}}{{end}}</ul></td>
<td>{{with .Minimal}}<p>{{call $.T "explore.min.faults" .Faults}}</p><ol lang="en">{{range .Steps}}<li>{{.}}</li>{{end}}</ol>
{{if .Timeline}}<a href="{{.Report}}"><img src="{{.Timeline}}" alt="{{call $.T "explore.min.timeline" $r.Class}}" loading="lazy"></a>{{end}}
<p>{{if .File}}<a href="{{.File}}">{{call $.T "explore.min.file"}}</a>{{end}}{{if .Report}} · <a href="{{.Report}}">{{call $.T "explore.min.report"}}</a>{{end}}{{if $r.ShrinkPage}} · <a href="{{$r.ShrinkPage}}">{{call $.T "explore.min.shrink"}}</a>{{end}}</p>
{{if .ConfirmSeeds}}<p class="desc">{{call $.T "explore.min.confirmed" .Confirmed .ConfirmSeeds}}</p>{{end}}
{{if $r.ShrinkExhausted}}<p class="desc">{{call $.T "explore.min.exhausted"}}</p>{{end}}
<code class="repro">{{.Reproduce}}</code>{{else}}{{with .Found}}<p>{{call $.T "explore.flaky.note" $.K}}</p><ol lang="en">{{range .Steps}}<li>{{.}}</li>{{end}}</ol>
<p>{{if .File}}<a href="{{.File}}">{{call $.T "explore.found.file"}}</a>{{end}}{{if .Report}} · <a href="{{.Report}}">{{call $.T "explore.min.report"}}</a>{{end}}</p>
<code class="repro">{{.Reproduce}}</code>{{end}}{{end}}</td>
</tr>
{{end}}</table>
{{if .NotApplicable}}<h2>{{call .T "explore.h.na"}}</h2>
<ul id="not-applicable">{{range .NotApplicable}}<li><code>{{.Class}}</code>: {{$.NA .}}{{if eq .Reason "explore.na.parser"}} <code lang="en">{{.Arg}}</code>{{end}}</li>{{end}}</ul>{{end}}
<h2>{{call .T "explore.h.base"}}</h2>
<pre>{{.BaseYAML}}</pre>
</body>
</html>`
