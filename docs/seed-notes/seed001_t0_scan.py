# Independent re-derivation of seed 001 example (planar: flexible link 1 = 1 Hermite element,
# clamped at joint 1; rigid uniform link 2 on its tip; theta1 = theta2 = eq.(13)); zero-order coupling
import math, sys, os
DT=float(os.environ.get("DT","2e-4"))
L1=L2=1.0; m1=m2=2.473; EI=2.07e11*6e-9
def law(t,t0):
    A=math.pi/6
    if t<=t0/2:
        th=A*(2*t/t0-math.sin(4*math.pi*t/t0)/(2*math.pi)); thd=A*(2/t0)*(1-math.cos(4*math.pi*t/t0)); thdd=A*(8*math.pi/t0**2)*math.sin(4*math.pi*t/t0)
    elif t<=t0:
        th=A*(2-2*t/t0+math.sin(4*math.pi*t/t0)/(2*math.pi)); thd=-A*(2/t0)*(1-math.cos(4*math.pi*t/t0)); thdd=-A*(8*math.pi/t0**2)*math.sin(4*math.pi*t/t0)
    else:
        th=thd=thdd=0.0
    return th,thd,thdd
K=[[12*EI/L1**3,-6*EI/L1**2],[-6*EI/L1**2,4*EI/L1]]
Me=[[13/35*m1*L1,-11/210*m1*L1**2],[-11/210*m1*L1**2,1/105*m1*L1**3]]
Sx=[7/20*m1*L1**2,-1/20*m1*L1**3]
def rhs(t,y,t0):
    u3,u4,v3,v4=y
    th,thd,thdd=law(t,t0); t1=t2=th; t1d=t2d=thd; t1dd=t2dd=thdd
    b=u4+t2; cb,sb=math.cos(b),math.sin(b); phid=t1d+v4+t2d
    M=[[Me[0][0]+m2*L2, Me[0][1]+0.5*m2*L2**2*cb],[Me[1][0]+0.5*m2*L2**2*cb, Me[1][1]+m2*L2**3/3]]
    f=[0.0,0.0]
    for k in range(2):
        f[k]+=Sx[k]*t1dd - t1d**2*(Me[k][0]*u3+Me[k][1]*u4) + K[k][0]*u3+K[k][1]*u4
    f[0]+=m2*L2*(L1*t1dd-u3*t1d**2)+0.5*m2*L2**2*((t1dd+t2dd)*cb-phid**2*sb)
    Ax=-u3*t1dd-L1*t1d**2-2*v3*t1d
    Ay_noacc=L1*t1dd-u3*t1d**2
    f[1]+=0.5*m2*L2**2*(-sb*Ax+cb*Ay_noacc)+m2*L2**3/3*(t1dd+t2dd)
    det=M[0][0]*M[1][1]-M[0][1]*M[1][0]
    a3=(-f[0]*M[1][1]+f[1]*M[0][1])/det; a4=(-f[1]*M[0][0]+f[0]*M[1][0])/det
    return [v3,v4,a3,a4]
def endpoint(t,y,t0):
    th=law(t,t0)[0]; u3,u4=y[0],y[1]
    x=L1*math.cos(th)-u3*math.sin(th)+L2*math.cos(2*th+u4); yy=L1*math.sin(th)+u3*math.cos(th)+L2*math.sin(2*th+u4)
    xr=L1*math.cos(th)+L2*math.cos(2*th); yr=L1*math.sin(th)+L2*math.sin(2*th)
    return x-xr,yy-yr
def run(t0,tend,dt=DT):
    y=[0,0,0,0]; t=0; mx=my=0; tx=ty=0; mxin=myin=0
    n=int(round(tend/dt))
    for i in range(n):
        k1=rhs(t,y,t0); k2=rhs(t+dt/2,[y[j]+dt/2*k1[j] for j in range(4)],t0)
        k3=rhs(t+dt/2,[y[j]+dt/2*k2[j] for j in range(4)],t0); k4=rhs(t+dt,[y[j]+dt*k3[j] for j in range(4)],t0)
        y=[y[j]+dt/6*(k1[j]+2*k2[j]+2*k3[j]+k4[j]) for j in range(4)]; t+=dt
        dx,dy=endpoint(t,y,t0)
        if abs(dx)>mx: mx,tx=abs(dx),t
        if abs(dy)>my: my,ty=abs(dy),t
        if t<=t0: mxin,myin=max(mxin,abs(dx)),max(myin,abs(dy))
    return mxin,myin,mx,tx,my,ty
for t0 in [float(a) for a in sys.argv[1:]]:
    r=run(t0,2*t0)
    print("t0=%.2f  max|dx|,|dy| during motion [0,t0]: %.1f mm %.1f mm ; over [0,2t0]: %.1f mm (t=%.3f) %.1f mm (t=%.3f)"%(t0,r[0]*1e3,r[1]*1e3,r[2]*1e3,r[3],r[4]*1e3,r[5]))
