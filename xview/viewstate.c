/*
 * viewstate.c: what each task was doing over time (the rule of
 * logs/analysis/taskstate.c, docs/VIEWER.md "Task states"), summed per time bin
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

/* Events between two checkpoints of a task's states. */
#define VS_CK 32

/* A checkpoint: the states followed up to event k * VS_CK (not fed yet),
   and the ns spent in each until then. */
struct vs_ck {
	struct pg_states s;
	int64_t ns[VS_N];
};

/* What vs_clip adds to: the ns in each state before time X. */
struct vs_upto {
	int64_t x;
	int64_t *ns;
};

/* pg_state_fn: adds the span [A, E) to ARG's ns (a struct vs_ck's). */
static void vs_whole(void *arg, int64_t a, int64_t e, int state)
{
	int64_t *ns = arg;

	ns[state] += e - a;
}

/* pg_state_fn: adds the part of [A, E) before ARG's x (a struct vs_upto). */
static void vs_clip(void *arg, int64_t a, int64_t e, int state)
{
	struct vs_upto *u = arg;

	if (e > u->x)
		e = u->x;
	if (e > a)
		u->ns[state] += e - a;
}

/* Task T's checkpoints, made again when it has had events since (the
   live view); NULL when memory runs out.  One pass over its events. */
static const struct vs_ck *vs_checkpoints(struct vdb_task *t)
{
	struct vs_ck *ck = t->ck, cur;

	if (ck && t->ck_n == t->n)
		return ck;
	if (!(ck = realloc(t->ck, (t->n / VS_CK + 1) * sizeof(*ck))))
		return NULL;
	t->ck = ck;
	memset(&cur, 0, sizeof(cur));
	pg_states_begin(&cur.s, t->start, 0);
	for (size_t i = 0; i < t->n; i++) {
		if (i % VS_CK == 0)
			ck[i / VS_CK] = cur;
		pg_states_event(&cur.s, t->st[i], t->t[i], t->t1[i], vs_whole,
				cur.ns);
	}
	if (t->n % VS_CK == 0)
		ck[t->n / VS_CK] = cur;
	t->ck_n = t->n;
	return ck;
}

/* The ns task T spent in each state before time X, into NS: from the
   checkpoint before the events entered before X, those events, and the
   stretch before the next one. */
static void vs_until(const struct vdb_task *t, const struct vs_ck *ck,
		     int64_t x, int64_t ns[VS_N])
{
	size_t i = vdb_lower(t, x), j = i / VS_CK * VS_CK;
	struct vs_ck c = ck[j / VS_CK];
	struct vs_upto u = { x, c.ns };

	for (; j <= i && j < t->n; j++)
		pg_states_event(&c.s, t->st[j], t->t[j], t->t1[j], vs_clip, &u);
	memcpy(ns, c.ns, sizeof(c.ns));
}

/* Sums task T's time in each state over the bins of B, each the
   difference of the times before its two edges; 0, or -1 when memory
   runs out.  A few checkpoints' worth of events a bin, however many
   events the window holds. */
static int vs_task(struct vdb_task *t, struct vs_bins *b)
{
	const struct vs_ck *ck;
	int64_t lo[VS_N], hi[VS_N];

	if (!t->n || t->start >= b->w1)
		return 0;
	if (!(ck = vs_checkpoints(t)))
		return -1;
	vs_until(t, ck, b->w0, lo);
	for (int i = 0; i < b->nb; i++) {
		int64_t edge = i + 1 == b->nb ? b->w1 :
			       b->w0 + (int64_t)((i + 1) * b->width);

		vs_until(t, ck, edge, hi);
		for (int s = 0; s < VS_N; s++)
			if (hi[s] > lo[s])
				b->acc[i * VS_N + s] += (double)(hi[s] - lo[s]);
		memcpy(lo, hi, sizeof(lo));
	}
	return 0;
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
		if ((one >= 0 ? vdb.tasks[i].ltid == one :
		     vdb_task_wanted(ip, ltids, vdb.tasks[i].ltid)) &&
		    vs_task(&vdb.tasks[i], b) < 0) {
			free(b->acc);
			Tcl_SetObjResult(ip, Tcl_NewStringObj("pgdb: out of memory", -1));
			return TCL_ERROR;
		}
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
