/*
 * viewstate.c: what each task was doing over time (the rule of
 * logs/taskstate.c, docs/VIEWER.md "Task states"), summed per time bin
 * (one bin per pixel column) from the in-memory arrays of viewdb.c, and
 * painted into Tk photo images: a band per task (the fraction of each
 * state per column, stacked) and the utilization (how many tasks are in
 * each state, stacked).
 */
#include "viewdb.h"

#include <stdlib.h>
#include <string.h>
#include <tk.h>

#define VS_N PG_ST_N

/* Their colours (R, G, B): XPVM's green and yellow, and red for waiting
   (XPVM's white would not show on the white canvas). */
static const unsigned char vs_rgb[VS_N][3] = {
	{ 0x2e, 0xb8, 0x2e }, { 0xf2, 0xd0, 0x1c }, { 0xd8, 0x30, 0x30 },
};

/* Bins of the window [W0, W1) (NB of them) where spans are summed. */
struct vs_bins {
	int64_t w0, w1;
	int nb;
	double width;  /* ns a bin */
	double *acc;   /* acc[bin * VS_N + state]: ns */
};

/* Adds the span [A, E) in STATE to the bins it overlaps.  Times are
   taken relative to the window's start before they become doubles: wall
   ns (about 2^61) would lose 256 ns to a double's 53 bits. */
static void vs_add(struct vs_bins *b, int64_t a, int64_t e, int state)
{
	double ra, re;
	int first, last;

	if (a < b->w0)
		a = b->w0;
	if (e > b->w1)
		e = b->w1;
	if (e <= a)
		return;
	ra = (double)(a - b->w0);
	re = (double)(e - b->w0);
	first = (int)(ra / b->width);
	last = (int)(re / b->width);
	if (last >= b->nb)
		last = b->nb - 1;
	if (first > last)
		first = last;
	for (int i = first; i <= last; i++) {
		double lo = i * b->width, hi = lo + b->width;
		double x0 = ra > lo ? ra : lo;
		double x1 = re < hi ? re : hi;

		if (x1 > x0)
			b->acc[i * VS_N + state] += x1 - x0;
	}
}

/* pg_state_fn of vs_task: adds the span to the bins ARG. */
static void vs_span(void *arg, int64_t a, int64_t e, int state)
{
	vs_add(arg, a, e, state);
}

/* Sums task T's time in each state over the bins of B: from the event
   before the window (its call may reach into it) to the first event
   after it (the stretch before that one may). */
static void vs_task(const struct vdb_task *t, struct vs_bins *b)
{
	struct pg_states s;
	size_t i;

	if (!t->n || t->start >= b->w1)
		return;
	i = vdb_lower(t, b->w0);
	if (i > 0)
		i--;
	pg_states_begin(&s, i ? t->t1[i - 1] : t->start,
			i && t->st[i - 1] == PG_EVS_POLLS);
	if (i && t->st[i - 1] == PG_EVS_END)
		return;
	for (; i < t->n; i++) {
		pg_states_event(&s, t->st[i], t->t[i], t->t1[i], vs_span, b);
		if (t->t[i] >= b->w1)
			break;
	}
}

/* Fills B for window [W0, W1) in NB bins, summing the tasks LTIDS lets
   through (every one when NULL), or only task ONE when ONE >= 0.
   TCL_OK, or an error in IP. */
static int vs_sum(Tcl_Interp *ip, struct vs_bins *b, int64_t w0, int64_t w1,
		  int nb, Tcl_Obj *ltids, int one)
{
	if (nb < 1 || nb > 100000 || w1 <= w0) {
		Tcl_SetObjResult(ip, Tcl_NewStringObj("pgdb: bad window", -1));
		return TCL_ERROR;
	}
	b->w0 = w0;
	b->w1 = w1;
	b->nb = nb;
	b->width = (double)(w1 - w0) / nb;
	if (!(b->acc = calloc((size_t)nb * VS_N, sizeof(double)))) {
		Tcl_SetObjResult(ip, Tcl_NewStringObj("pgdb: out of memory", -1));
		return TCL_ERROR;
	}
	for (int i = 0; i < vdb.ntasks; i++)
		if (one >= 0 ? vdb.tasks[i].ltid == one :
		    vdb_task_wanted(ip, ltids, vdb.tasks[i].ltid))
			vs_task(&vdb.tasks[i], b);
	return TCL_OK;
}

/* pgdb states T0 T1 ?LTIDS?: ltid {computing in-PVM waiting} ... in ns
   over [T0, T1), per task. */
int vdb_cmd_states(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	int64_t w[2];
	Tcl_Obj *res;

	if (vdb_ints(ip, objv + 2, 2, w) != TCL_OK)
		return TCL_ERROR;
	res = Tcl_NewListObj(0, NULL);
	for (int i = 0; i < vdb.ntasks; i++) {
		struct vs_bins b;
		Tcl_Obj *v[VS_N];

		if (!vdb_task_wanted(ip, objc == 5 ? objv[4] : NULL,
				     vdb.tasks[i].ltid))
			continue;
		if (vs_sum(ip, &b, w[0], w[1], 1, NULL, vdb.tasks[i].ltid) != TCL_OK) {
			Tcl_DecrRefCount(res);
			return TCL_ERROR;
		}
		for (int s = 0; s < VS_N; s++)
			v[s] = Tcl_NewWideIntObj((Tcl_WideInt)(b.acc[s] + 0.5));
		free(b.acc);
		Tcl_ListObjAppendElement(NULL, res, Tcl_NewIntObj(vdb.tasks[i].ltid));
		Tcl_ListObjAppendElement(NULL, res, Tcl_NewListObj(VS_N, v));
	}
	Tcl_SetObjResult(ip, res);
	return TCL_OK;
}

/* The photo image named by OBJ, with its size in *W, *H; NULL (error in
   IP) if there is none or it is empty. */
static Tk_PhotoHandle vs_photo(Tcl_Interp *ip, Tcl_Obj *obj, int *w, int *h)
{
	Tk_PhotoHandle p = Tk_FindPhoto(ip, Tcl_GetString(obj));

	if (!p) {
		Tcl_SetObjResult(ip, Tcl_ObjPrintf("pgdb: no photo image %s",
						   Tcl_GetString(obj)));
		return NULL;
	}
	Tk_PhotoGetSize(p, w, h);
	if (*w < 1 || *h < 1) {
		Tcl_SetObjResult(ip, Tcl_NewStringObj("pgdb: empty image", -1));
		return NULL;
	}
	return p;
}

/* Paints column X of the W x H RGBA block PIX: from the bottom up, as
   many pixels of each state as N[state] * SCALE; the rest transparent. */
static void vs_column(unsigned char *pix, int w, int h, int x,
		      const double *n, double scale)
{
	int y = h;

	for (int s = 0; s < VS_N; s++) {
		int k = (int)(n[s] * scale + 0.5);

		for (; k > 0 && y > 0; k--) {
			unsigned char *p = pix + ((size_t)--y * w + x) * 4;

			memcpy(p, vs_rgb[s], 3);
			p[3] = 255;
		}
	}
}

/* Puts the RGBA block PIX (W x H) into photo P; TCL_OK or an error. */
static int vs_put(Tcl_Interp *ip, Tk_PhotoHandle p, unsigned char *pix,
		  int w, int h)
{
	Tk_PhotoImageBlock blk = {
		.pixelPtr = pix, .width = w, .height = h, .pitch = w * 4,
		.pixelSize = 4, .offset = { 0, 1, 2, 3 },
	};
	int rc = Tk_PhotoPutBlock(ip, p, &blk, 0, 0, w, h, TK_PHOTO_COMPOSITE_SET);

	free(pix);
	return rc;
}

/* Paints the photo OBJV[2] over the window OBJV[3..4], one bin a pixel
   column: ONE >= 0 the band of that task (each state's fraction of the
   column), else the utilization of the tasks LTIDS lets through (NTASKS
   high: how many were in each state). */
static int vs_paint(Tcl_Interp *ip, Tcl_Obj *const objv[], Tcl_Obj *ltids,
		    int one, int ntasks)
{
	int64_t w[2];
	int iw, ih;
	Tk_PhotoHandle p;
	struct vs_bins b;
	unsigned char *pix;

	if (!(p = vs_photo(ip, objv[2], &iw, &ih)) ||
	    vdb_ints(ip, objv + 3, 2, w) != TCL_OK ||
	    vs_sum(ip, &b, w[0], w[1], iw, ltids, one) != TCL_OK)
		return TCL_ERROR;
	if (!(pix = calloc((size_t)iw * ih, 4))) {
		free(b.acc);
		Tcl_SetObjResult(ip, Tcl_NewStringObj("pgdb: out of memory", -1));
		return TCL_ERROR;
	}
	for (int x = 0; x < iw; x++)
		vs_column(pix, iw, ih, x, b.acc + x * VS_N,
			  ih / (b.width * (one >= 0 ? 1 : (ntasks ? ntasks : 1))));
	free(b.acc);
	return vs_put(ip, p, pix, iw, ih);
}

/* pgdb paint-states IMG T0 T1 LTID */
int vdb_cmd_paint_states(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	int ltid;

	if (Tcl_GetIntFromObj(ip, objv[5], &ltid) != TCL_OK)
		return TCL_ERROR;
	return vs_paint(ip, objv, NULL, ltid, 1);
}

/* pgdb paint-util IMG T0 T1 NTASKS ?LTIDS? */
int vdb_cmd_paint_util(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	int n;

	if (Tcl_GetIntFromObj(ip, objv[5], &n) != TCL_OK)
		return TCL_ERROR;
	return vs_paint(ip, objv, objc == 7 ? objv[6] : NULL, -1, n);
}
