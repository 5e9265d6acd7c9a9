"""A training step of a 12-layer Llama-style model under torch.compile.

Embedding, 12 blocks (RMSNorm, rotary embedding on interleaved pairs,
causal attention, a SiLU-gated MLP), a vocabulary head and cross-entropy,
in bf16; forward, backward and a foreach AdamW step. Inductor's Triton
kernels, cuBLAS and the attention library's kernels: several hundred
launches of many kinds, as a real step has. The third step is profiled (the
first two compile and warm up); run.sh keeps its first 330 launches.
"""
import importlib.util
import pathlib

import torch
import torch.nn as nn
import torch.nn.functional as F

# The block (RMSNorm, rotary on interleaved pairs, attention, SiLU MLP) is
# fixtures/triton/model.py's, at its sizes.
_path = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "triton" / "model.py"
_spec = importlib.util.spec_from_file_location("llama_block", _path)
llama_block = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(llama_block)
Block, RMSNorm = llama_block.Block, llama_block.RMSNorm
B, T, D, H, HD = llama_block.B, llama_block.T, llama_block.D, llama_block.H, llama_block.HD
V, LAYERS = 8192, 12

torch.manual_seed(0)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(V, D)
        self.blocks = nn.ModuleList(Block() for _ in range(LAYERS))
        self.norm = RMSNorm()
        self.head = nn.Linear(D, V, bias=False)

    def forward(self, tokens, targets, cos, sin):
        x = self.embed(tokens)
        for block in self.blocks:
            x = block(x, cos, sin)
        logits = self.head(self.norm(x)).float()
        return F.cross_entropy(logits.view(-1, V), targets.view(-1))


def main():
    model = Model().cuda().to(torch.bfloat16)
    step = torch.compile(model)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, foreach=True)
    pos = torch.arange(T, device="cuda", dtype=torch.float32)[:, None]
    freq = 10000.0 ** (-torch.arange(0, HD, 2, device="cuda", dtype=torch.float32) / HD)
    cos = torch.cos(pos * freq)[None, :, None, :].to(torch.bfloat16)
    sin = torch.sin(pos * freq)[None, :, None, :].to(torch.bfloat16)
    tokens = torch.randint(0, V, (B, T), device="cuda")
    targets = torch.randint(0, V, (B, T), device="cuda")
    for i in range(3):
        if i == 2:
            torch.cuda.synchronize()
            torch.cuda.profiler.start()
        step(tokens, targets, cos, sin).backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        if i == 2:
            torch.cuda.synchronize()
            torch.cuda.profiler.stop()


if __name__ == "__main__":
    main()
