/* naive.cuh — fixture: shared code is hashed, not loaded. */
