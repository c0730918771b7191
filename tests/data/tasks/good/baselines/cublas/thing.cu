/* thing.cu — fixture: the baseline named by L1/001-thing. */
