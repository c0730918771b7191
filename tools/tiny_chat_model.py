#!/usr/bin/env python3
"""tiny_chat_model.py OUT_DIR — a randomly initialised tiny Llama chat model with a
word-level tokenizer and a chat template, built offline (no download), so that
`transformers serve` can serve it to `cuarena run --agent llm` (tools/dev/gpu-session.sh llm).
Its replies are random words: the point is the HTTP/JSON contract with somebody else's
OpenAI-compatible server, not the kernels."""
import sys

import torch
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

out = sys.argv[1]
special = ["<unk>", "<s>", "</s>", "<pad>"]
words = ("``` ```cuda #include \"cuarena.h\" int cua_solve ( ) { } ; return 0 const struct "
         "cua_tensor * in out n_in n_out cudaStream_t stream __global__ void float x y i "
         "= + - < > blockIdx.x blockDim.x threadIdx.x if fmaxf 0.f kernel relu the a of "
         "is to and user assistant system : \n").split(" ")
vocab = {w: i for i, w in enumerate(special + sorted(set(words)))}
tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", bos_token="<s>",
                               eos_token="</s>", pad_token="<pad>")
fast.chat_template = ("{% for m in messages %}{{ m['role'] }} : {{ m['content'] }}\n"
                      "{% endfor %}{% if add_generation_prompt %}assistant : {% endif %}")
torch.manual_seed(0)
cfg = LlamaConfig(vocab_size=len(vocab), hidden_size=64, intermediate_size=128,
                  num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=4,
                  max_position_embeddings=65536, bos_token_id=1, eos_token_id=2,
                  pad_token_id=3, tie_word_embeddings=True)
model = LlamaForCausalLM(cfg)
model.generation_config.max_new_tokens = 64
model.save_pretrained(out)
fast.save_pretrained(out)
n = sum(p.numel() for p in model.parameters())
print(f"tiny chat model: {n} parameters, vocabulary {len(vocab)}, in {out}")
