/*
 * svgplot.c: SVG pictures of tables (svgplot.h): plain SVG 1.1 text,
 * viewable in any browser, no library and no display needed.
 */
#include "svgplot.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define SVG_LEFT 150  /* room for the row names */
#define SVG_TOP 46    /* room for the title and the note */

/* Writes S to F with &, < and > escaped. */
static void svg_text(FILE *f, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		default: fputc(*s, f);
		}
}

/* Opens PATH and writes the SVG header of a W x H picture and T's title
   and note; the file, or NULL with ERR. */
static FILE *svg_open(const char *path, int w, int h,
		      const struct svg_table *t, char *err, size_t errlen)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return NULL;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" font-family=\"Helvetica, Arial, sans-serif\" "
		"font-size=\"11\">\n<rect width=\"100%%\" height=\"100%%\" "
		"fill=\"white\"/>\n<text x=\"10\" y=\"20\" font-size=\"14\" "
		"font-weight=\"bold\">", w, h);
	svg_text(f, t->title);
	fputs("</text>\n", f);
	if (t->note) {
		fputs("<text x=\"10\" y=\"36\" fill=\"#555\">", f);
		svg_text(f, t->note);
		fputs("</text>\n", f);
	}
	return f;
}

/* Writes a text element at X, Y (ANCHOR start, middle or end). */
static void svg_label(FILE *f, double x, double y, const char *anchor,
		      const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", x, y, anchor);
	svg_text(f, s);
	fputs("</text>\n", f);
}

/* Closes F after the end tag; 0, or -1 with ERR naming PATH. */
static int svg_close(FILE *f, const char *path, char *err, size_t errlen)
{
	fputs("</svg>\n", f);
	if (ferror(f) | fclose(f)) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int svg_histograms(const char *path, const struct svg_table *t, char *err,
		   size_t errlen)
{
	const int colw = 74, rowh = 96, barh = 60;
	int w = SVG_LEFT + t->ncols * colw + 20, h = SVG_TOP + t->nrows * rowh + 10;
	FILE *f = svg_open(path, w, h, t, err, errlen);
	char num[32];

	if (!f)
		return -1;
	for (int r = 0; r < t->nrows; r++) {
		double top = SVG_TOP + r * rowh, base = top + barh + 10, max = 0;

		for (int c = 0; c < t->ncols; c++)
			if (t->v[r * t->ncols + c] > max)
				max = t->v[r * t->ncols + c];
		svg_label(f, 10, top + barh / 2 + 10, "start", t->rows[r]);
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
			"stroke=\"#888\"/>\n", SVG_LEFT, base, w - 20, base);
		for (int c = 0; c < t->ncols; c++) {
			double v = t->v[r * t->ncols + c];
			double bh = max > 0 ? barh * v / max : 0;
			double x = SVG_LEFT + c * colw + 8;

			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" "
				"height=\"%.1f\" fill=\"#4a78c8\"/>\n", x,
				base - bh, colw - 16, bh);
			snprintf(num, sizeof(num), "%.0f", v);
			svg_label(f, x + (colw - 16) / 2.0, base - bh - 3, "middle", num);
			svg_label(f, x + (colw - 16) / 2.0, base + 13, "middle",
				  t->cols[c]);
		}
	}
	return svg_close(f, path, err, errlen);
}

int svg_shares(const char *path, const struct svg_table *t, char *err,
	       size_t errlen)
{
	const int barw = 560, rowh = 30;
	int w = SVG_LEFT + barw + 30, h = SVG_TOP + 24 + t->nrows * rowh + 10;
	FILE *f = svg_open(path, w, h, t, err, errlen);
	char pct[32];

	if (!f)
		return -1;
	for (int c = 0; c < t->ncols; c++) {
		double x = SVG_LEFT + c * 120;

		fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"10\" height=\"10\" "
			"fill=\"%s\" stroke=\"#444\"/>\n", x, SVG_TOP, t->colours[c]);
		svg_label(f, x + 14, SVG_TOP + 9, "start", t->cols[c]);
	}
	for (int r = 0; r < t->nrows; r++) {
		double y = SVG_TOP + 24 + r * rowh, sum = 0, x = SVG_LEFT;

		for (int c = 0; c < t->ncols; c++)
			sum += t->v[r * t->ncols + c];
		svg_label(f, 10, y + 15, "start", t->rows[r]);
		for (int c = 0; c < t->ncols && sum > 0; c++) {
			double bw = barw * t->v[r * t->ncols + c] / sum;

			fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
				"height=\"20\" fill=\"%s\"/>\n", x, y, bw,
				t->colours[c]);
			if (bw >= 34) {
				snprintf(pct, sizeof(pct), "%.0f%%",
					 100 * t->v[r * t->ncols + c] / sum);
				svg_label(f, x + bw / 2, y + 14, "middle", pct);
			}
			x += bw;
		}
	}
	return svg_close(f, path, err, errlen);
}
