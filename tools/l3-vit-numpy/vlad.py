import numpy as np
def run(x,cl,c2,K,dt):
    x,cl,c2=x.astype(dt),cl.astype(dt),c2.astype(dt)
    B,N,D=x.shape; xr=x.reshape(-1,D); a=xr@cl
    m=a.mean(0); v=a.var(0); a=(a-m)/np.sqrt(v+dt(1e-5))
    a=np.exp(a-a.max(1,keepdims=True)); a/=a.sum(1,keepdims=True)
    a=a[:,:K].reshape(B,N,K); asum=a.sum(1,keepdims=True)*c2
    vl=np.einsum('bnk,bnd->bdk',a,x)-asum
    vl/=np.maximum(np.sqrt((vl**2).sum(1,keepdims=True)),1e-12)
    vl=vl.reshape(B,-1); vl/=np.maximum(np.sqrt((vl**2).sum(1,keepdims=True)),1e-12); return vl
rng=np.random.default_rng(0); B,N,D,K,G=64,100,512,32,16
x=rng.random((B,N,D)).astype(np.float32); cl=(rng.standard_normal((D,K+G))/np.sqrt(D)).astype(np.float32); c2=(rng.standard_normal((1,D,K))/np.sqrt(D)).astype(np.float32)
e=run(x,cl,c2,K,np.float64); g=run(x,cl,c2,K,np.float32)
err=np.abs(g-e); print("absmax",np.abs(e).max(),"rms",np.sqrt((e**2).mean()),"maxratio",(err/(1e-6+1e-4*np.abs(e))).max())
x2=rng.random((B,N,D)).astype(np.float32); e2=run(x2,cl,c2,K,np.float64)
print("regen x: frac of elements changed beyond tol", np.mean(np.abs(e2-e)>1e-6+1e-4*np.abs(e)), "rms change", np.sqrt(((e2-e)**2).mean()))
a=(x.reshape(-1,D).astype(np.float64)@cl); a=(a-a.mean(0))/a.std(0); print("logit range", a.min(), a.max())
def tf32(a):
    a=a.astype(np.float32).view(np.uint32); a=(a+0x1000)&0xffffe000; return a.view(np.float32)
def run_tf(x,cl,c2,K):
    xr=tf32(x.reshape(-1,D)).astype(np.float64)@tf32(cl).astype(np.float64)
    return xr
for at,rt in ((1e-6,1e-4),(1e-7,1e-5)):
    print(at,rt,"fp32 ratio",(err/(at+rt*np.abs(e))).max())
# TF32 for all gemms approx: perturb inputs by tf32 rounding
gt=run(tf32(x),tf32(cl),c2,K,np.float32)
for at,rt in ((1e-6,1e-4),(1e-7,1e-5)):
    print(at,rt,"tf32 ratio",(np.abs(gt-e)/(at+rt*np.abs(e))).max(), "frac fail", np.mean(np.abs(gt-e)>at+rt*np.abs(e)))
