package paramap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/locksim/locksim/internal/report/page"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/locksim/locksim/internal/report"
)

// Files a map writes in its directory.
const (
	PNGFile  = "map.png"
	HTMLFile = "map.html"
	JSONFile = "map.json"
)

// Write writes map.json, map.png and map.html into dir.
func Write(dir string, m Map) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, JSONFile), append(b, '\n'), 0o644)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", JSONFile, err)
	}
	if err := writePNG(filepath.Join(dir, PNGFile), m); err != nil {
		return fmt.Errorf("write %s: %w", PNGFile, err)
	}
	if err := writeHTML(dir, m); err != nil {
		return fmt.Errorf("write %s: %w", HTMLFile, err)
	}
	return nil
}

// rateColor is the colour of a violation rate: white at 0, dark red at 1.
func rateColor(r float64) color.NRGBA {
	if math.IsNaN(r) {
		return color.NRGBA{200, 200, 200, 255}
	}
	r = max(0, min(1, r))
	lo, hi := [3]float64{255, 255, 255}, [3]float64{165, 15, 21}
	mix := func(i int) uint8 { return uint8(math.Round(lo[i] + (hi[i]-lo[i])*r)) }
	return color.NRGBA{mix(0), mix(1), mix(2), 255}
}

// ratePalette is rateColor in steps, for the heatmap.
type ratePalette int

func (n ratePalette) Colors() []color.Color {
	out := make([]color.Color, int(n))
	for i := range out {
		out[i] = rateColor(float64(i) / float64(int(n)-1))
	}
	return out
}

// grid is the map as gonum's GridXYZ: cells at integer coordinates.
type grid struct {
	m      Map
	nx, ny int
}

func (g grid) Dims() (c, r int) { return g.nx, g.ny }
func (g grid) X(c int) float64  { return float64(c) }
func (g grid) Y(r int) float64  { return float64(r) }
func (g grid) Z(c, r int) float64 {
	if cell, ok := g.m.Cell(c, r); ok && cell.Runs > 0 {
		return cell.Rate
	}
	return math.NaN()
}

func (m Map) dims() (nx, ny int) {
	nx, ny = len(m.Axes[0].Values), 1
	if len(m.Axes) > 1 {
		ny = len(m.Axes[1].Values)
	}
	return nx, ny
}

// cellText is what a cell says: its rate and, when some runs were
// unknown, their share.
func cellText(c CellResult) string {
	if c.Runs == 0 {
		return "no run"
	}
	s := fmt.Sprintf("%.0f%%\n%d/%d", 100*c.Rate, c.Invalid, c.Runs)
	if c.Unknown > 0 {
		s += fmt.Sprintf("\n? %.0f%% unknown", 100*c.UnknownShare)
	}
	return s
}

func writePNG(path string, m Map) error {
	nx, ny := m.dims()
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s (%s): share of runs invalid, %d seeds per cell\nwhite 0%% → red 100%%; “?” the share of runs that were unknown", m.Scenario, m.Algorithm, len(m.Seeds))
	for _, f := range []*font.Font{&p.Title.TextStyle.Font, &p.X.Label.TextStyle.Font, &p.Y.Label.TextStyle.Font, &p.X.Tick.Label.Font, &p.Y.Tick.Label.Font} {
		f.Variant = "Sans"
		f.Size = vg.Points(15)
	}
	p.Title.TextStyle.Font.Size = vg.Points(17)
	p.X.Label.Text = m.Axes[0].Path
	hm := plotter.NewHeatMap(grid{m, nx, ny}, ratePalette(101))
	hm.Min, hm.Max = 0, 1
	hm.NaN = color.NRGBA{200, 200, 200, 255}
	p.Add(hm)
	var xys plotter.XYs
	var labels []string
	for _, c := range m.Cells {
		xys = append(xys, plotter.XY{X: float64(c.X), Y: float64(c.Y)})
		labels = append(labels, cellText(c))
	}
	lb, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels})
	if err != nil {
		return err
	}
	for i, c := range m.Cells {
		ts := lb.TextStyle[i]
		ts.Font.Size, ts.Font.Variant = vg.Points(15), "Sans"
		ts.XAlign, ts.YAlign = draw.XCenter, draw.YCenter
		if c.Runs > 0 && c.Rate > 0.55 {
			ts.Color = color.White
		}
		lb.TextStyle[i] = ts
	}
	p.Add(lb)
	p.NominalX(m.Axes[0].Values...)
	if len(m.Axes) > 1 {
		p.Y.Label.Text = m.Axes[1].Path
		p.NominalY(m.Axes[1].Values...)
	} else {
		p.NominalY("")
	}
	p.X.Min, p.X.Max = -0.5, float64(nx)-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(ny)-0.5
	w := vg.Points(float64(160 + 130*nx))
	h := vg.Points(float64(130 + 95*ny))
	return p.Save(w, h, path)
}

type htmlCell struct {
	Text, Link string
	Style      template.CSS // built here from numbers only
}

type htmlRow struct {
	Label string
	Cells []htmlCell
}

type htmlPage struct {
	Lang, Title, Subtitle, XPath, YPath, PNG, Seeds, Note string
	XValues                                               []string
	Rows                                                  []htmlRow
}

func writeHTML(dir string, m Map) error {
	nx, ny := m.dims()
	pg := htmlPage{Lang: "en", Title: fmt.Sprintf("Map of %s", m.Scenario), XPath: m.Axes[0].Path, XValues: m.Axes[0].Values, PNG: PNGFile,
		Subtitle: fmt.Sprintf("%s, algorithm %s: the share of runs that were invalid in each cell; %d runs, %.1f s.", m.File, m.Algorithm, m.Runs, m.Seconds),
		Seeds:    fmt.Sprintf("Each cell ran seeds %d..%d.", m.Seeds[0], m.Seeds[len(m.Seeds)-1]),
		Note:     "A cell marked “? unknown” had runs that proved nothing (a fault that met no hold, a machine too busy to keep compressed time): they count in the cell's runs but not as violations."}
	if m.Description != "" {
		pg.Subtitle = m.Description + " " + pg.Subtitle
	}
	if len(m.Axes) > 1 {
		pg.YPath = m.Axes[1].Path
	}
	// Rows from the largest y down, as the heatmap draws them.
	for y := ny - 1; y >= 0; y-- {
		row := htmlRow{}
		if len(m.Axes) > 1 {
			row.Label = m.Axes[1].Values[y]
		}
		for x := range nx {
			c, _ := m.Cell(x, y)
			col := rateColor(c.Rate)
			if c.Runs == 0 {
				col = rateColor(math.NaN())
			}
			fg := "#111"
			if c.Runs > 0 && c.Rate > 0.55 {
				fg = "#fff"
			}
			hc := htmlCell{Text: strings.ReplaceAll(cellText(c), "\n", " · "),
				Style: template.CSS(fmt.Sprintf("background:#%02x%02x%02x;color:%s", col.R, col.G, col.B, fg))}
			if c.FirstInvalid != "" {
				if rel, err := filepath.Rel(dir, filepath.Join(c.FirstInvalid, report.IndexFile)); err == nil {
					hc.Link = filepath.ToSlash(rel)
				}
			}
			row.Cells = append(row.Cells, hc)
		}
		pg.Rows = append(pg.Rows, row)
	}
	t, err := page.Parse("map", htmlTemplate, nil)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, pg); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, HTMLFile), b.Bytes(), 0o644)
}

const htmlTemplate = `{{template "head" .}}<style>
{{template "plain.css"}}  table { border-collapse: collapse; margin: 16px 0; }
  th, td { border: 1px solid #bbb; padding: 8px 12px; text-align: center; }
  th { background: #f0f0f0; }
  td a { color: inherit; font-weight: 700; }
  img { max-width: 100%; border: 1px solid #bbb; }
  .axis { font-family: monospace; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p>{{.Subtitle}} {{.Seeds}}</p>
<p><img src="{{.PNG}}" alt="{{.Title}}"></p>
<table id="map">
<tr><th>{{if .YPath}}<span class="axis">{{.YPath}}</span> ↓ · {{end}}<span class="axis">{{.XPath}}</span> →</th>{{range .XValues}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr><th>{{.Label}}</th>{{range .Cells}}<td style="{{.Style}}">{{.Text}}{{if .Link}}<br><a href="{{.Link}}">first invalid run</a>{{end}}</td>{{end}}</tr>
{{end}}</table>
<p>{{.Note}}</p>
</body>
</html>
`
