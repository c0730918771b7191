/* layers.h — the layered-input expansion (layers.c), for task.c: a "layers"
 * list of task.json becomes the named segments of one flat f32 input. Internal
 * to harness/catalogue/. */
#ifndef CUA_LAYERS_H
#define CUA_LAYERS_H

#include "catalogue/loader.h"

/* spec is the input of ld->t at prefix (its name and dtype loaded), j its JSON
 * object. Fills spec->segments, n_segments and the shape ["P"], P the end of the
 * last segment; on failure the error names the field, and what was allocated
 * stays in spec for cua_task_free. */
enum cua_status cua_layers_load(struct cua_loader *ld, const cJSON *j, const char *prefix,
                                struct cua_tensor_spec *spec);

#endif /* CUA_LAYERS_H */
