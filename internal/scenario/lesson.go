package scenario

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// The course module's lessons (lesson-42-distributed-lock.vi.txt): a
// scenario's lesson: names one or more of them.
const (
	FirstLesson = 42
	LastLesson  = 51
)

// Lessons are the course lessons the scenario illustrates, ascending, each
// once ("lesson: 44" or "lesson: [43, 45]"); nil when it names none.
type Lessons []int

// MarshalYAML writes one lesson as a number, several as a flow list.
func (l Lessons) MarshalYAML() (any, error) {
	if len(l) == 1 {
		return l[0], nil
	}
	n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, v := range l {
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: fmt.Sprint(v)})
	}
	return n, nil
}

const lessonHint = "a course lesson 42–51 (lesson: 44), or several (lesson: [43, 45])"

// lessons reads lesson: one integer or a list of integers, each a lesson
// of the course, none twice.
func (p *parser) lessons(f field) Lessons {
	n := f.val
	if n == nil || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null") {
		return nil
	}
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		if len(n.Content) == 0 {
			p.errorf(n, "lesson", "must name at least one lesson (got an empty list); %s", lessonHint)
			return nil
		}
		items = n.Content
	}
	var out Lessons
	for i, it := range items {
		path := "lesson"
		if n.Kind == yaml.SequenceNode {
			path = fmt.Sprintf("lesson[%d]", i)
		}
		if it.Kind != yaml.ScalarNode {
			p.errorf(it, path, "must be %s (got %s)", lessonHint, describe(it))
			continue
		}
		v, vn, st := p.integer(field{val: it}, path)
		if st != good {
			continue
		}
		switch {
		case v < FirstLesson || v > LastLesson:
			p.errorf(vn, path, "must be between %d and %d, the course module's lessons (got %s)", FirstLesson, LastLesson, clip(vn.Value))
		case slices.Contains(out, int(v)):
			p.errorf(vn, path, "lesson %d is named twice", v)
		default:
			out = append(out, int(v))
		}
	}
	slices.Sort(out)
	return out
}

// descriptionVI reads description_vi: the description in Vietnamese, one
// line of text like description.
func (p *parser) descriptionVI(f field, en string) string {
	v, n, st := p.str(f, "description_vi")
	if st != good {
		return ""
	}
	switch {
	case strings.TrimSpace(v) == "":
		p.errorf(n, "description_vi", "must not be empty; leave it out, or say in Vietnamese what description says")
		return ""
	case en == "":
		p.errorf(n, "description_vi", "needs description: it is the Vietnamese of the English description")
		return ""
	case utf8.RuneCountInString(v) > 500:
		p.errorf(n, "description_vi", "is %d characters; at most 500 (one or two sentences)", utf8.RuneCountInString(v))
		return ""
	}
	return v
}
