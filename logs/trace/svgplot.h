/*
 * svgplot.h: pictures as SVG files, written without a display (for
 * `pangaea-trace stats --plot`): rows of histograms, and rows of
 * stacked shares.
 */
#ifndef PANGAEA_SVGPLOT_H
#define PANGAEA_SVGPLOT_H

#include <stddef.h>

/* A table to draw: NROWS rows named ROWS, NCOLS columns named COLS, the
 * values V[row * NCOLS + col] (not negative). */
struct svg_table {
	const char *title, *note; /* note: a line under the title, or NULL */
	int nrows, ncols;
	const char *const *rows, *const *cols;
	const double *v;
	const char *const *colours; /* stacked: one a column ("#rrggbb") */
};

/* Writes T to PATH as one histogram a row (a bar a column, its height
 * scaled to the row's largest, its value written on it); 0, or -1 with
 * ERR saying why. */
int svg_histograms(const char *path, const struct svg_table *t, char *err,
		   size_t errlen);
/* Writes T to PATH as one bar a row, split into the columns' shares of
 * the row's sum (in T's colours, with a legend and the percentages); 0,
 * or -1 with ERR saying why. */
int svg_shares(const char *path, const struct svg_table *t, char *err,
	       size_t errlen);

#endif /* PANGAEA_SVGPLOT_H */
