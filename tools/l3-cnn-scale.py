#!/usr/bin/env python3
"""l3-cnn-scale.py — numeric arguments of tasks/L3/DEPARTURES-cnn.md, measured on a CPU with
float64 / float32 numpy models of two KernelBench networks (same layers; numpy's pairwise
sums are more accurate than a naive GPU kernel's sequential ones, so fp32 errors here are
a lower bound).

    python3 tools/l3-cnn-scale.py googlenet [H]      # L3/007 (H 64: ~20 s)
        logits' rms and the rms of their difference between two U[0, 1) images, with
        PyTorch's default init and with the task's (He stem, U(±√(3/fan_in)) inception
        convs): the judge's "x regenerated" check needs the difference far above the
        tolerance
    python3 tools/l3-cnn-scale.py squeezenet [H]     # L3/018 (H 131: ~5 s)
        the same for SqueezeNet, default init against He-uniform
    python3 tools/l3-cnn-scale.py effnet-b2 [H] [B] [SEEDS]   # L3/024 (224 2 2: ~25 s)
        the fp32-vs-fp64 error of the logits (default init), and their change when x is
        regenerated
"""
import sys

import numpy as np

rng = np.random.default_rng(0)

# ---- GoogLeNet (L3/007)
def g_conv(x,cout,k,s=1,p=0,init="default",relu=False):
    n,c,h,w=x.shape; fan=c*k*k
    b={"default":1/np.sqrt(fan),"he":np.sqrt(6/fan),"lecun":np.sqrt(3/fan)}[init]
    W=rng.uniform(-b,b,(cout,c,k,k)); bias=rng.uniform(-1/np.sqrt(fan),1/np.sqrt(fan),cout)
    xp=np.pad(x,((0,0),(0,0),(p,p),(p,p)))
    oh=(h+2*p-k)//s+1; ow=(w+2*p-k)//s+1
    cols=np.empty((n,c,k,k,oh,ow))
    for i in range(k):
        for j in range(k):
            cols[:,:,i,j]=xp[:,:,i:i+s*oh:s,j:j+s*ow:s]
    y=np.einsum('nckluv,fckl->nfuv',cols,W,optimize=True)+bias[None,:,None,None]
    return np.maximum(y,0) if relu else y
def maxpool(x,k,s,p):
    n,c,h,w=x.shape; xp=np.pad(x,((0,0),(0,0),(p,p),(p,p)),constant_values=-np.inf)
    oh=(h+2*p-k)//s+1; ow=(w+2*p-k)//s+1
    y=np.full((n,c,oh,ow),-np.inf)
    for i in range(k):
        for j in range(k):
            y=np.maximum(y,xp[:,:,i:i+s*oh:s,j:j+s*ow:s])
    return y
M=[(64,96,128,16,32,32),(128,128,192,32,96,64),(192,96,208,16,48,64),(160,112,224,24,64,64),(128,128,256,24,64,64),(112,144,288,32,64,64),(256,160,320,32,128,128),(256,160,320,32,128,128),(384,192,384,48,128,128)]
def incep(x,m,init):
    c1,r3,c3,r5,c5,pp=m
    return np.concatenate([g_conv(x,c1,1,init=init),g_conv(g_conv(x,r3,1,init=init),c3,3,1,1,init=init),g_conv(g_conv(x,r5,1,init=init),c5,5,1,2,init=init),g_conv(maxpool(x,3,1,1),pp,1,init=init)],1)
def g_net(x,stem,inc):
    x=maxpool(g_conv(x,64,7,2,3,stem,True),3,2,1); x=g_conv(x,64,1,init=stem,relu=True); x=maxpool(g_conv(x,192,3,1,1,stem,True),3,2,1)
    for i,m in enumerate(M):
        if i in(2,7): x=maxpool(x,3,2,1)
        x=incep(x,m,inc)
    f=x.mean((2,3)); W=rng.uniform(-1/32,1/32,(1000,1024)); b=rng.uniform(-1/32,1/32,1000)
    return f@W.T+b, f@W.T


def googlenet_main(H):
    global rng
    for stem,inc in [("default","default"),("he","lecun")]:

        x=np.random.default_rng(5).uniform(0,1,(2,3,H,H))
        rng=np.random.default_rng(0)
        y,yx=g_net(x,stem,inc)
        print(stem,inc,"rms y %.3g  rms x-part %.3g  rms(y0-y1) %.3g"%(np.sqrt((y**2).mean()),np.sqrt((yx**2).mean()),np.sqrt(((y[0]-y[1])**2).mean())))


# ---- EfficientNet-B2 (L3/024)
def conv(x,W,s=1,p=0,g=1):
    n,c,h,w=x.shape; f,cg,k,_=W.shape
    xp=np.pad(x,((0,0),(0,0),(p,p),(p,p)))
    oh=(h+2*p-k)//s+1; ow=(w+2*p-k)//s+1
    cols=np.empty((n,c,k,k,oh,ow),x.dtype)
    for i in range(k):
        for j in range(k):
            cols[:,:,i,j]=xp[:,:,i:i+s*oh:s,j:j+s*ow:s]
    if g==1: return np.einsum('nckluv,fckl->nfuv',cols,W,optimize=True)
    assert cg==1 and f==c
    return np.einsum('nckluv,ckl->ncuv',cols,W[:,0])
def bn(x,relu):
    m=x.mean((0,2,3),keepdims=True); v=((x-m)**2).mean((0,2,3),keepdims=True)
    y=(x-m)/np.sqrt(v+x.dtype.type(1e-5))
    return np.maximum(y,0) if relu else y
def weights(rng):
    Ws=[]; u=lambda shape: rng.uniform(-1,1,shape)/np.sqrt(np.prod(shape[1:]))
    Ws.append(u((32,3,3,3)))
    cin=32
    for c,s,t in [(96,1,3),(144,2,6),(192,2,6),(288,2,6),(384,1,6)]:
        e=cin*t
        Ws.append((u((e,cin,1,1)),u((e,1,3,3)),u((e//4,e,1,1)),u((e,e//4,1,1)),u((c,e,1,1)),s)); cin=c
    Ws.append(u((1408,384,1,1))); Ws.append((u((1000,1408)),rng.uniform(-1,1,1000)/np.sqrt(1408)))
    return Ws
def net(x,Ws,dt):
    x=x.astype(dt); c=lambda W: W.astype(dt)
    x=bn(conv(x,c(Ws[0]),2,1),True)
    for (w1,wd,wr,we,wp,s) in Ws[1:6]:
        x=bn(conv(x,c(w1)),True); x=bn(conv(x,c(wd),s,1,g=wd.shape[0]),True)
        x=x.mean((2,3),keepdims=True); x=np.maximum(conv(x,c(wr)),0); x=1/(1+np.exp(-conv(x,c(we))))
        x=bn(conv(x,c(wp)),False)
    x=bn(conv(x,c(Ws[6])),True).mean((2,3))
    W,b=Ws[7]; return x@c(W).T+c(b)


def effnet_main():
    H=int(sys.argv[2]) if len(sys.argv)>2 else 224; B=int(sys.argv[3]) if len(sys.argv)>3 else 2
    for seed in range(int(sys.argv[4]) if len(sys.argv)>4 else 2):
        rng=np.random.default_rng(seed); Ws=weights(rng)
        x=rng.uniform(0,1,(B,3,H,H)); x2=rng.uniform(0,1,(B,3,H,H))
        y64=net(x,Ws,np.float64); y32=net(x,Ws,np.float32); y2=net(x2,Ws,np.float64)
        e=np.abs(y32-y64); r=e/(np.abs(y64)+1e-30)
        print("seed %d: |y| rms %.3g max %.3g; f32 err max %.3g (where |y|<.1: %.3g); need atol at rtol 1e-2: %.3g; |y(x')-y(x)| rms %.3g"%(seed,np.sqrt((y64**2).mean()),np.abs(y64).max(),e.max(),e[np.abs(y64)<.1].max() if (np.abs(y64)<.1).any() else 0,np.maximum(e-1e-2*np.abs(y64),0).max(),np.sqrt(((y2-y64)**2).mean())))


# ---- SqueezeNet (L3/018)
def s_conv(x,cout,k,s=1,p=0,init="he",relu=True):
    n,c,h,w=x.shape; fan=c*k*k
    b={"default":1/np.sqrt(fan),"he":np.sqrt(6/fan)}[init]
    W=rng.uniform(-b,b,(cout,c,k,k)); bias=rng.uniform(-1/np.sqrt(fan),1/np.sqrt(fan),cout)
    xp=np.pad(x,((0,0),(0,0),(p,p),(p,p))); oh=(h+2*p-k)//s+1; ow=(w+2*p-k)//s+1
    cols=np.empty((n,c,k,k,oh,ow))
    for i in range(k):
        for j in range(k): cols[:,:,i,j]=xp[:,:,i:i+s*oh:s,j:j+s*ow:s]
    y=np.einsum('nckluv,fckl->nfuv',cols,W,optimize=True)+bias[None,:,None,None]
    return np.maximum(y,0) if relu else y
def s_poolc(x):
    n,c,h,w=x.shape; o=lambda v: -(-(v-3)//2)+1
    oh,ow=o(h),o(w); xp=np.pad(x,((0,0),(0,0),(0,3),(0,3)),constant_values=-np.inf); y=np.full((n,c,oh,ow),-np.inf)
    for i in range(3):
        for j in range(3): y=np.maximum(y,xp[:,:,i:i+2*oh:2,j:j+2*ow:2])
    return y
SF=[(16,64,64),(16,64,64),(32,128,128),(32,128,128),(48,192,192),(48,192,192),(64,256,256),(64,256,256)]
def s_fire(x,sq,e1,e3,init):
    s=s_conv(x,sq,1,init=init); return np.concatenate([s_conv(s,e1,1,init=init),s_conv(s,e3,3,1,1,init=init)],1)
def s_net(x,init):
    x=s_poolc(s_conv(x,96,7,2,init=init))
    for i,f in enumerate(SF):
        if i in (3,7): x=s_poolc(x)
        x=s_fire(x,*f,init)
    return s_conv(x,1000,1,init=init).mean((2,3))


def squeezenet_main(H):
    global rng
    for init in ("default","he"):
        rng=np.random.default_rng(0); x=np.random.default_rng(5).uniform(0,1,(2,3,H,H))
        y=s_net(x,init); print(init,"rms y %.3g rms(y0-y1) %.3g"%(np.sqrt((y**2).mean()),np.sqrt(((y[0]-y[1])**2).mean())))


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in ("googlenet", "squeezenet", "effnet-b2"):
        sys.exit(__doc__)
    if sys.argv[1] == "googlenet":
        googlenet_main(int(sys.argv[2]) if len(sys.argv) > 2 else 64)
    elif sys.argv[1] == "squeezenet":
        squeezenet_main(int(sys.argv[2]) if len(sys.argv) > 2 else 131)
    else:
        effnet_main()
