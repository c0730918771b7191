/* transcript.h — one episode of a run as a page of the HTML board: every turn's
 * source (highlighted by the page's script), its diff from the turn before, its
 * verdict and message, reward, speedups with their intervals, time, tokens and
 * latency, and what the agent was shown; the best turn marked. The text comes
 * from trajectories.jsonl, read through the results reader's line walk
 * (cua_results_each_line); verdicts and times from the loaded run. */
#ifndef CUA_TRANSCRIPT_H
#define CUA_TRANSCRIPT_H

#include "results/results.h"

/* The text of one "turn" line. Strings are valid UTF-8 (cleaned on load). */
struct cua_turn_text {
	int task;                 /* index into run->tasks */
	int turn;
	int line;                 /* its line in trajectories.jsonl (the later one wins) */
	char *observation;        /* what the agent was shown before the turn; NULL absent */
	char *reply;              /* the agent's reply; NULL absent */
	char *code;               /* the source it submitted; NULL when none */
	double prompt_tokens, completion_tokens, latency_s;   /* NaN when absent */
	bool recovered;           /* written on a resume, from the source left on disk */
};

/* The turn lines of one run, held whole (about the size of its
 * trajectories.jsonl: the board loads one run's at a time). */
struct cua_transcript {
	const struct cua_results *run;   /* borrowed */
	int n, cap;
	struct cua_turn_text *turns;     /* by task, turn, line */
	double **rewards;                /* per task: the end line's settled rewards, NULL if none */
	int *n_rewards;
};

/* Reads run's trajectories.jsonl (missing: no turns). A line the results reader
 * refuses fails with its file and line in err; *out is NULL then. */
enum cua_status cua_transcript_load(const struct cua_results *run, struct cua_transcript **out,
                                    char *err, size_t errlen);
void cua_transcript_free(struct cua_transcript *tr);   /* NULL is a no-op */

/* The text of task t's turn, NULL when it has no turn line. */
const struct cua_turn_text *cua_transcript_turn(const struct cua_transcript *tr,
                                                const struct cua_results_task *t, int turn);

/* What an episode page shows and where it links. */
struct cua_episode_page {
	const struct cua_transcript *tr;
	const struct cua_results_task *task;
	const char *label;        /* "agent version" */
	const char *up;           /* from the page to the board's top: "../../" */
	const char *task_href;    /* the task's page, from this page */
	const char *prompt;       /* the prompt the task page shows, NULL when none: turn 1's
	                           * observation is linked there when it is that text */
	int scored_turn;          /* the turn the board scores (0: none) */
};

/* Writes the page to f (the caller opens and closes it). */
void cua_transcript_write(FILE *f, const struct cua_episode_page *p);

/* The part of an agent's reply that is not its code: the reply with the code
 * (when it holds it verbatim) replaced by `mark`, or NULL when nothing but the
 * code and its fences is left (heap). */
char *cua_transcript_prose(const char *reply, const char *code, const char *mark);

#endif /* CUA_TRANSCRIPT_H */
