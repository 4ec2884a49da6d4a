/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * What every section of compare's page draws with (html_int.h): the runs'
 * colours and legend, and text escaped.  Below html.c and the sections it
 * calls, which all use them.
 */
#include <stdlib.h>
#include <string.h>

#include "compare/html_int.h"
#include "compare/model.h"
#include "util/util.h"


/* Okabe-Ito: distinguishable with the common colour blindnesses. */
static const char *const palette[] = {
	"#0072b2", "#e69f00", "#009e73", "#cc79a7",
	"#56b4e9", "#d55e00", "#000000", "#999999",
};

const char *html_color(size_t run)
{
	return palette[run % ARRAY_SIZE(palette)];
}

/* Text escaped for HTML body, attribute and SVG text alike. */
void html_esc(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);

	while (n) {
		size_t k = utf8_seq_len(p, n);

		if (*p == '&')
			fputs("&amp;", out);
		else if (*p == '<')
			fputs("&lt;", out);
		else if (*p == '>')
			fputs("&gt;", out);
		else if (*p == '"')
			fputs("&quot;", out);
		else if (*p == '\'')
			fputs("&#39;", out);
		else if (!k || (*p < 0x20 && *p != '\t' && *p != '\n') ||
			 *p == 0x7f)
			fputs("\xef\xbf\xbd", out);
		else
			fwrite(p, 1, k, out);
		k = k ? k : 1;
		p += k;
		n -= k;
	}
}

/* At most NAME_MAX_CHARS characters, for chart labels. */
void html_esc_short(FILE *out, const char *s)
{
	size_t chars = 0, i;
	char *cut;

	for (i = 0; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80 &&
		    ++chars > NAME_MAX_CHARS - 1)
			break;
	}
	if (!s[i]) {
		html_esc(out, s);
		return;
	}
	cut = xstrndup(s, i);
	html_esc(out, cut);
	fputs("\xe2\x80\xa6", out); /* ellipsis */
	free(cut);
}

int html_chars(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

int html_legend(FILE *out, const struct cmp *c, int x0, int y, int max_x,
		bool lines)
{
	int x = x0;

	for (size_t i = 0; i < c->nruns; i++) {
		int w = 22 + CHAR_W * html_chars(c->runs[i].label) + 16;

		if (x + w > max_x && x > x0) {
			x = x0;
			y += 18;
		}
		if (!out)
			;
		else if (lines)
			fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" "
				     "y2=\"%d\" stroke=\"%s\" "
				     "stroke-width=\"2.5\"/>",
				x, y - 4, x + 16, y - 4, html_color(i));
		else
			fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"12\" "
				     "height=\"12\" fill=\"%s\"/>",
				x, y - 10, html_color(i));
		if (out) {
			fprintf(out, "<text x=\"%d\" y=\"%d\">", x + 20, y);
			html_esc(out, c->runs[i].label);
			fputs("</text>\n", out);
		}
		x += w;
	}
	return y;
}
