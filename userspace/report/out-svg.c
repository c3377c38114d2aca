// SPDX-License-Identifier: GPL-2.0
/*
 * A self-contained interactive SVG flame graph: the commands at the bottom,
 * each call above its caller, widths in samples. The script inside zooms
 * into a frame when it is clicked (and out with "Reset Zoom"), searches
 * (the "Search" button, or "#s=REGEX" / "?s=REGEX" in the URL), and names
 * the frame under the pointer with its samples and share at the bottom; each
 * frame also has a tooltip (its <title>). Frames are coloured by kind:
 * kernel, native code, JIT code and, where the name says it (V8's "*"
 * optimized, "^" baseline, "+" Maglev and "~" interpreted marks, a JVM's
 * "[c2]", "[c1]" and "Interpreter"), the JIT tier. Frames narrower than a
 * tenth of a pixel are left out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "json.h"
#include "outputs.h"

#define SVG_WIDTH 1200
#define SVG_PAD	  10
#define FRAME_H	  16
#define TOP	  52 /* title, buttons */
#define BOTTOM	  34 /* details line */
#define MIN_WIDTH 0.1

enum tier { TIER_NONE, TIER_OPT, TIER_BASELINE, TIER_MID, TIER_INTERP };

static const char *const kind_names[] = {"native", "kernel", "jit", "process"};
static const char *const tier_names[] = {"", "jit-optimized", "jit-baseline", "jit-mid",
					 "jit-interpreted"};

/* The JIT tier a name states: V8's marks after an optional "Kind:" prefix, a JVM's tiers. */
static enum tier name_tier(const char *name)
{
	const char *colon = strchr(name, ':');
	const char *p = name;

	if (colon && colon - name < 24 && colon[1] != ':')
		p = colon + 1;
	switch (*p) {
	case '*':
		return TIER_OPT;
	case '^':
		return TIER_BASELINE;
	case '+':
		return TIER_MID;
	case '~':
		return TIER_INTERP;
	}
	/* a JVM's tiers, where its perf map names them */
	if (strstr(name, "[c2]") || strstr(name, "[C2]"))
		return TIER_OPT;
	if (strstr(name, "[c1]") || strstr(name, "[C1]"))
		return TIER_BASELINE;
	if (strstr(name, "Interpreter"))
		return TIER_INTERP;
	return TIER_NONE;
}

static unsigned int name_hash(const char *s)
{
	unsigned int h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static void colour(const struct ct_frame *f, enum tier t, const char *name, char *buf, size_t len)
{
	unsigned int h = name_hash(name);
	unsigned int v1 = h % 100, v2 = (h >> 8) % 100, v3 = (h >> 16) % 100;

	if (f->kind == CT_PROCESS)
		snprintf(buf, len, "rgb(%u,%u,%u)", 170 + v1 / 5, 170 + v1 / 5, 180 + v1 / 5);
	else if (f->kind == CT_KERNEL)
		snprintf(buf, len, "rgb(%u,%u,%u)", 220 + v1 / 4, 120 + v2 * 6 / 10, 30 + v3 / 4);
	else if (f->kind == CT_JIT && t == TIER_OPT)
		snprintf(buf, len, "rgb(%u,%u,%u)", 20 + v1 / 3, 140 + v2 / 2, 50 + v3 / 3);
	else if (f->kind == CT_JIT && (t == TIER_BASELINE || t == TIER_MID))
		snprintf(buf, len, "rgb(%u,%u,%u)", 60 + v1 / 2, 190 + v2 / 3, 140 + v3 / 2);
	else if (f->kind == CT_JIT && t == TIER_INTERP)
		snprintf(buf, len, "rgb(%u,%u,%u)", 90 + v1 / 3, 190 + v2 / 3, 220 + v3 / 3);
	else if (f->kind == CT_JIT)
		snprintf(buf, len, "rgb(%u,%u,%u)", 80 + v1 / 2, 200 + v2 / 2, 60 + v3 / 3);
	else
		snprintf(buf, len, "rgb(%u,%u,%u)", 205 + v1 / 2, v2 * 23 / 10, v3 * 55 / 100);
}

/* @s escaped for XML text and attributes; bytes that are not UTF-8 become U+FFFD. */
static void xml_str(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = json__utf8_len(p);

		if (*p == '&')
			fputs("&amp;", out);
		else if (*p == '<')
			fputs("&lt;", out);
		else if (*p == '>')
			fputs("&gt;", out);
		else if (*p == '"')
			fputs("&quot;", out);
		else if (*p < 0x20)
			fputc(' ', out);
		else if (n)
			fwrite(p, 1, n, out);
		else
			fputs("\xef\xbf\xbd", out);
		p += n ? n : 1;
	}
}

struct svg {
	FILE *out;
	uint64_t total; /* samples, or the period with by_period */
	bool by_period;
	int height;
	uint64_t *next_x; /* by depth: where the next frame at that depth starts, in samples */
	size_t cap_x;
	int max_depth;
};

/* How wide a node is: its samples, or its period (flame_info.by_period). */
static uint64_t weight(const struct svg *s, const struct ct_node *n)
{
	return s->by_period ? n->total : n->total_n;
}

static int depth_of(struct calltree *ct, uint32_t node, int depth, void *arg)
{
	struct svg *s = arg;
	double w = (double)weight(s, &ct->n[node]) * (SVG_WIDTH - 2 * SVG_PAD) / (double)s->total;

	if (w >= MIN_WIDTH && depth > s->max_depth)
		s->max_depth = depth;
	return 0;
}

static int frame(struct calltree *ct, uint32_t node, int depth, void *arg)
{
	struct svg *s = arg;
	const struct ct_node *n = &ct->n[node];
	const struct ct_frame *f = &ct->f[n->frame];
	const char *name = calltree__name(ct, n->frame);
	double scale = (double)(SVG_WIDTH - 2 * SVG_PAD) / (double)s->total;
	double x, w = (double)weight(s, n) * scale;
	enum tier t = f->kind == CT_JIT ? name_tier(name) : TIER_NONE;
	uint64_t at;
	char fill[32];
	int y;

	if (array_grow(&s->next_x, &s->cap_x, (size_t)depth + 2))
		return -ENOMEM;
	at = s->next_x[depth];
	s->next_x[depth] = at + weight(s, n);
	s->next_x[depth + 1] = at;
	if (w < MIN_WIDTH)
		return 0;
	x = SVG_PAD + (double)at * scale;
	y = s->height - BOTTOM - depth * FRAME_H;
	colour(f, t, name, fill, sizeof(fill));
	fprintf(s->out, "<g class=\"f %s%s%s\"><title>", kind_names[f->kind], t ? " " : "",
		tier_names[t]);
	xml_str(s->out, name);
	fprintf(s->out,
		" (%llu %s, %.2f%%)</title><rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" "
		"height=\"%d\" fill=\"%s\" rx=\"2\"/><text x=\"%.2f\" y=\"%.1f\"></text></g>\n",
		(unsigned long long)weight(s, n), s->by_period ? "ns" : "samples",
		hist__pct(weight(s, n), s->total), x, y, w,
		FRAME_H - 1, fill, x + 3, y + 11.5);
	return 0;
}

/* The script: zoom, search, details; written by hand for this file. */
static const char script[] =
    "<script type=\"text/ecmascript\"><![CDATA[\n"
    "'use strict';\n"
    "var frames = [], details, matched, unzoomBtn, searchBtn, current = null;\n"
    "function label(g) { return g.querySelector('title').textContent; }\n"
    "function fname(g) { return label(g).replace(/ \\([0-9]+ samples, [0-9.]+%\\)$/, ''); }\n"
    "function fit(g) {\n"
    "  var r = g.querySelector('rect'), t = g.querySelector('text');\n"
    "  var w = parseFloat(r.getAttribute('width')), name = fname(g), n = Math.floor((w - 6) / 7);\n"
    "  t.setAttribute('x', parseFloat(r.getAttribute('x')) + 3);\n"
    "  t.textContent = n < 3 ? '' : name.length <= n ? name : name.substring(0, n - 2) + '..';\n"
    "}\n"
    "function init() {\n"
    "  details = document.getElementById('details');\n"
    "  matched = document.getElementById('matched');\n"
    "  unzoomBtn = document.getElementById('unzoom');\n"
    "  searchBtn = document.getElementById('search');\n"
    "  frames = Array.prototype.slice.call(document.querySelectorAll('g.f'));\n"
    "  frames.forEach(function (g) {\n"
    "    var r = g.querySelector('rect');\n"
    "    g.ox = parseFloat(r.getAttribute('x')); g.ow = parseFloat(r.getAttribute('width'));\n"
    "    g.oy = parseFloat(r.getAttribute('y')); g.ofill = r.getAttribute('fill');\n"
    "    fit(g);\n"
    "    g.addEventListener('click', function () { zoom(g); });\n"
    "    g.addEventListener('mouseover', function () { details.textContent = 'Function: ' + "
    "label(g); });\n"
    "    g.addEventListener('mouseout', function () { details.textContent = ' '; });\n"
    "  });\n"
    "  unzoomBtn.addEventListener('click', unzoom);\n"
    "  searchBtn.addEventListener('click', function () {\n"
    "    var term = prompt('Search for (regular expression):', '');\n"
    "    if (term) search(term); else search(null);\n"
    "  });\n"
    "  var m = /[#?&]s=([^&]*)/.exec(location.hash + location.search);\n"
    "  if (m) search(decodeURIComponent(m[1]));\n"
    "}\n"
    "function zoom(z) {\n"
    "  var x0 = z.ox, w0 = z.ow, k = (W - 2 * PAD) / w0;\n"
    "  current = z;\n"
    "  frames.forEach(function (g) {\n"
    "    var r = g.querySelector('rect');\n"
    "    var inside = g.ox >= x0 - 0.001 && g.ox + g.ow <= x0 + w0 + 0.001;\n"
    "    if (g.oy > z.oy && g.ox <= x0 + 0.001 && g.ox + g.ow >= x0 + w0 - 0.001) {\n"
    "      r.setAttribute('x', PAD); r.setAttribute('width', W - 2 * PAD);\n"
    "      g.style.display = ''; g.style.opacity = '0.6';\n"
    "    } else if (g.oy <= z.oy && inside) {\n"
    "      r.setAttribute('x', PAD + (g.ox - x0) * k); r.setAttribute('width', g.ow * k);\n"
    "      g.style.display = ''; g.style.opacity = '';\n"
    "    } else {\n"
    "      g.style.display = 'none';\n"
    "    }\n"
    "    fit(g);\n"
    "  });\n"
    "  unzoomBtn.style.opacity = '1';\n"
    "}\n"
    "function unzoom() {\n"
    "  current = null;\n"
    "  frames.forEach(function (g) {\n"
    "    var r = g.querySelector('rect');\n"
    "    r.setAttribute('x', g.ox); r.setAttribute('width', g.ow);\n"
    "    g.style.display = ''; g.style.opacity = ''; fit(g);\n"
    "  });\n"
    "  unzoomBtn.style.opacity = '0';\n"
    "}\n"
    "function search(term) {\n"
    "  var re = null, spans = [], sum = 0, end = -1;\n"
    "  if (term) { try { re = new RegExp(term); } catch (e) { re = null; } }\n"
    "  frames.forEach(function (g) {\n"
    "    var r = g.querySelector('rect'), hit = re !== null && re.test(fname(g));\n"
    "    r.setAttribute('fill', hit ? 'rgb(230,0,230)' : g.ofill);\n"
    "    g.classList.toggle('match', hit);\n"
    "    if (hit) spans.push([g.ox, g.ox + g.ow]);\n"
    "  });\n"
    "  spans.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });\n"
    "  spans.forEach(function (s) {\n"
    "    if (s[0] >= end - 0.001) { sum += s[1] - s[0]; end = s[1]; }\n"
    "    else if (s[1] > end) { sum += s[1] - end; end = s[1]; }\n"
    "  });\n"
    "  matched.textContent = re ? 'Matched: ' + (100 * sum / (W - 2 * PAD)).toFixed(1) + '%' : ' "
    "';\n"
    "  searchBtn.textContent = re ? 'Reset Search' : 'Search';\n"
    "  return spans.length;\n"
    "}\n"
    "window.flameSearch = search; window.flameZoom = zoom; window.flameUnzoom = unzoom;\n"
    "window.addEventListener('load', init);\n"
    "]]></script>\n";

int out_svg__write(struct calltree *ct, uint32_t root, const struct flame_info *fi, FILE *out)
{
	struct svg s = {.out = out, .by_period = fi->by_period};
	int err = 0;

	s.total = weight(&s, &ct->n[root]);
	if (s.total)
		err = calltree__walk(ct, root, depth_of, &s);
	if (err)
		return err;
	s.height = TOP + BOTTOM + (s.max_depth + 1) * FRAME_H;
	fprintf(out,
		"<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n",
		SVG_WIDTH, s.height, SVG_WIDTH, s.height);
	fputs("<style type=\"text/css\">\n"
	      "text { font-family: monospace; font-size: 12px; fill: rgb(0,0,0); }\n"
	      "g.f:hover rect { stroke: rgb(0,0,0); stroke-width: 0.5; cursor: pointer; }\n"
	      "g.f text { pointer-events: none; }\n"
	      ".button { cursor: pointer; fill: rgb(40,40,160); }\n"
	      "#title { font-size: 16px; text-anchor: middle; }\n"
	      "</style>\n",
	      out);
	fprintf(out, "<script type=\"text/ecmascript\">var W = %d, PAD = %d;</script>\n", SVG_WIDTH,
		SVG_PAD);
	fputs(script, out);
	fprintf(out,
		"<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"rgb(250,250,245)\"/>\n",
		SVG_WIDTH, s.height);
	fprintf(out, "<text id=\"title\" x=\"%d\" y=\"20\">Flame graph: ", SVG_WIDTH / 2);
	xml_str(out, fi->file);
	fputs(", ", out);
	xml_str(out, fi->event && *fi->event ? fi->event : "samples");
	fprintf(out, ", %llu %s</text>\n", (unsigned long long)s.total, s.by_period ? "ns" : "samples");
	fprintf(out,
		"<text id=\"unzoom\" class=\"button\" x=\"%d\" y=\"40\" style=\"opacity:0\">"
		"Reset Zoom</text>\n",
		SVG_PAD);
	fprintf(out,
		"<text id=\"search\" class=\"button\" x=\"%d\" y=\"40\" "
		"text-anchor=\"end\">Search</text>\n",
		SVG_WIDTH - SVG_PAD);
	fprintf(out,
		"<text x=\"%d\" y=\"40\" text-anchor=\"middle\" fill=\"rgb(90,90,90)\">"
		"kernel: orange, native: red-yellow, JIT: green (optimized dark, baseline "
		"teal, interpreted light blue), command: grey</text>\n",
		SVG_WIDTH / 2);
	fprintf(out, "<text id=\"matched\" x=\"%d\" y=\"%d\" text-anchor=\"end\"> </text>\n",
		SVG_WIDTH - SVG_PAD, s.height - 12);
	fprintf(out, "<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n", SVG_PAD, s.height - 12);
	if (s.total) {
		if (array_grow(&s.next_x, &s.cap_x, 2))
			return -ENOMEM;
		s.next_x[1] = 0;
		err = calltree__walk(ct, root, frame, &s);
	}
	fputs("</svg>\n", out);
	free(s.next_x);
	return err;
}
