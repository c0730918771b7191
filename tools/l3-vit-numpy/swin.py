import numpy as np
rng=np.random.default_rng(0)
N,H,W,nh,hs,ws,ss=2,14,14,2,4,7,3
C=nh*hs
qkv=rng.standard_normal((N,H,W,3*C)); bias=rng.standard_normal((nh,ws*ws,ws*ws))
def part(x): B,H,W,C=x.shape; return x.reshape(B,H//ws,ws,W//ws,ws,C).transpose(0,1,3,2,4,5).reshape(-1,ws*ws,C)
def rev(w,H,W): B=w.shape[0]//((H//ws)*(W//ws)); return w.reshape(B,H//ws,W//ws,ws,ws,-1).transpose(0,1,3,2,4,5).reshape(B,H,W,-1)
# reference (torch-like)
x=np.roll(qkv,(-ss,-ss),(1,2)); w=part(x)
img=np.zeros((1,H,W,1)); cnt=0
for h in (slice(0,-ws),slice(-ws,-ss),slice(-ss,None)):
    for ww in (slice(0,-ws),slice(-ws,-ss),slice(-ss,None)):
        img[:,h,ww,:]=cnt; cnt+=1
mw=part(img).reshape(-1,ws*ws); mask=mw[:,None,:]-mw[:,:,None]; mask=np.where(mask!=0,-100.,0.)
nW=mask.shape[0]
q=w[...,:C].reshape(-1,ws*ws,nh,hs).transpose(0,2,1,3); k=w[...,C:2*C].reshape(-1,ws*ws,nh,hs).transpose(0,2,1,3); v=w[...,2*C:].reshape(-1,ws*ws,nh,hs).transpose(0,2,1,3)
qn=q/np.linalg.norm(q,axis=-1,keepdims=True); kn=k/np.linalg.norm(k,axis=-1,keepdims=True)
a=qn@kn.transpose(0,1,3,2)*10+bias[None]
a=(a.reshape(N,nW,nh,ws*ws,ws*ws)+mask[None,:,None]).reshape(-1,nh,ws*ws,ws*ws)
a=np.exp(a-a.max(-1,keepdims=True)); a/=a.sum(-1,keepdims=True)
o=(a@v).transpose(0,2,1,3).reshape(-1,ws*ws,C)
ref=np.roll(rev(o,H,W),(ss,ss),(1,2))
# my kernel's indexing
out=np.zeros((N,H,W,C))
for b in range(N):
  for yy in range(H):
    for xx in range(W):
      for h in range(nh):
        sy=(yy-ss)%H; sx=(xx-ss)%W; wy0=sy//ws*ws; wx0=sx//ws*ws; pi=(sy%ws)*ws+sx%ws
        lab=lambda a,b: 3*(0 if a<H-ws else 1 if a<H-ss else 2)+(0 if b<W-ws else 1 if b<W-ss else 2)
        li=lab(sy,sx)
        qv=qkv[b,yy,xx,h*hs:(h+1)*hs]; sc=[];vs=[]
        for j in range(ws*ws):
          ky=wy0+j//ws; kx=wx0+j%ws; ty=(ky+ss)%H; tx=(kx+ss)%W
          kv=qkv[b,ty,tx,C+h*hs:C+(h+1)*hs]
          s=qv@kv/np.linalg.norm(qv)/np.linalg.norm(kv)*10+bias[h,pi,j]+(-100 if lab(ky,kx)!=li else 0)
          sc.append(s); vs.append(qkv[b,ty,tx,2*C+h*hs:2*C+(h+1)*hs])
        sc=np.array(sc); p=np.exp(sc-sc.max()); p/=p.sum()
        out[b,yy,xx,h*hs:(h+1)*hs]=p@np.array(vs)
print("max diff",np.abs(out-ref).max())
# SwinMLP spatial check: padding version
u=rng.standard_normal((N,H,W,C)); Wm=rng.standard_normal((nh*ws*ws,ws*ws)); bm=rng.standard_normal(nh*ws*ws)
P=ws-ss
up=np.pad(u,((0,0),(P,ss),(P,ss),(0,0))); Hp=H+ws
wn=part(up).reshape(-1,ws*ws,nh,hs).transpose(0,2,1,3)   # nWB, nh, ws2, hs
res=np.einsum('hij,bhjc->bhic',Wm.reshape(nh,ws*ws,ws*ws),wn)+bm.reshape(nh,ws*ws)[None,:,:,None]
res=rev(res.transpose(0,2,1,3).reshape(-1,ws*ws,C),Hp,Hp)[:,P:-ss,P:-ss]
mine=np.zeros_like(u)
for b in range(N):
  for yy in range(H):
    for xx in range(W):
      for ch in range(C):
        h=ch//hs; py=yy+P; px=xx+P; wy0=py//ws*ws; wx0=px//ws*ws; pos=(py%ws)*ws+px%ws
        acc=bm[h*ws*ws+pos]
        for j in range(ws*ws):
          sy=wy0+j//ws-P; sx=wx0+j%ws-P
          if 0<=sy<H and 0<=sx<W: acc+=Wm[h*ws*ws+pos,j]*u[b,sy,sx,ch]
        mine[b,yy,xx,ch]=acc
print("mlp max diff",np.abs(mine-res).max())
