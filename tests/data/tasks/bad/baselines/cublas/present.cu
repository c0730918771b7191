/* present.cu — fixture: a baseline file that exists. */
